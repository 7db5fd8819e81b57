import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Throttle, ThrottlerGuard } from '@nestjs/throttler';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../common/validation';
import { Public } from '../common/public.decorator';
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
@UseGuards(ThrottlerGuard)
@Controller('demo-agent')
export class DemoAgentController {
  @Post('webhook')
  @HttpCode(200)
  @Throttle({ auth: { limit: 120, ttl: 60_000 } })
  @ApiOkResponse({ schema: { example: [{ output: 'Hello!' }] } })
  reply(@Body() body: DemoAgentRequest): Array<{ output: string }> {
    return demoAgentResponse(body.message);
  }
}
