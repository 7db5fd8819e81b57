import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { WebhookTestRequestDto, WebhookTestResultDto, WebhookTestTargetDto } from './dto/webhook-test.dto';
import { WebhookTestService } from './webhook-test.service';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';

/** The webhook tester page: sends a message to the default agent's webhook and shows both readings. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('webhook-test')
export class WebhookTestController {
  constructor(private readonly tester: WebhookTestService) {}

  @Get()
  @ApiOkResponse({ type: WebhookTestTargetDto })
  address(): WebhookTestTargetDto {
    return { url: this.tester.target() };
  }

  @Post()
  @RateLimit('webhookTest')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookTestResultDto })
  test(@Body() body: WebhookTestRequestDto): Promise<WebhookTestResultDto> {
    return this.tester.test(body.message);
  }
}
