import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../common/validation';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { demoAgentResponse } from './demo-agent';

/** The fields any agent webhook receives; the demo reads only `message`. */
class DemoAgentRequest {
  @ApiProperty()
  @IsString({ message: 'message must be text' })
  @MaxLength(20_000, { message: 'message is too long' })
  message: string;

  @OptionalNotNull() @IsString() @MaxLength(100) sessionId?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) chatId?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) messageId?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) agentId?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) userId?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) companyId?: string;
}

/** The built-in demo agent over HTTP, n8n style: `POST {message}` → `[{"output": "..."}]`. */
@ApiTags('agents')
@Public()
@Controller('demo-agent')
export class DemoAgentController {
  @Post('webhook')
  @HttpCode(200)
  @RateLimit('demoAgent')
  @ApiOkResponse({ schema: { example: [{ output: 'Hello!' }] } })
  reply(@Body() body: DemoAgentRequest): Array<{ output: string }> {
    return demoAgentResponse(body.message);
  }
}
