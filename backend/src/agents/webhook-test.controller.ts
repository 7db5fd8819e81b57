import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { parseAgentReply, postWebhook } from '../webhooks/webhook-client';
import { DEMO_AGENT_PATH, demoAgentResponse } from './demo-agent';

class WebhookTestRequest {
  @ApiProperty()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'Message Required: Please enter a message to send to the webhook' })
  @Matches(/\S/, { message: 'Message Required: Please enter a message to send to the webhook' })
  @MaxLength(20_000, { message: 'The message is too long' })
  message: string;
}

class WebhookTestTarget {
  @ApiProperty() url: string;
}

class WebhookTestResult {
  @ApiProperty() url: string;
  @ApiProperty({ description: 'HTTP status, 0 when no answer came' }) status: number;
  @ApiProperty({ description: 'The body as received (or what went wrong)' }) raw: string;
  @ApiProperty({ description: "The reply as a chat would show it (the spec's parsing)" }) output: string;
  @ApiProperty() ok: boolean;
}

/** The webhook tester page: sends a message to the default agent's webhook and shows both readings. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('webhook-test')
export class WebhookTestController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private get target(): string {
    return this.config.defaultAgentWebhook ?? `${this.config.appOrigin}${DEMO_AGENT_PATH}`;
  }

  @Get()
  @ApiOkResponse({ type: WebhookTestTarget })
  address(): WebhookTestTarget {
    return { url: this.target };
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookTestResult })
  async test(@Body() body: WebhookTestRequest): Promise<WebhookTestResult> {
    const url = this.target;
    if (!this.config.defaultAgentWebhook) {
      const raw = JSON.stringify(demoAgentResponse(body.message));
      return { url, status: 200, raw, output: parseAgentReply(raw), ok: true };
    }
    const outcome = await postWebhook({
      url,
      body: { message: body.message },
      id: randomUUID(),
      timeoutMs: this.config.webhookTimeoutMs,
      allowedHosts: new Set(this.config.webhookAllowedHosts),
    });
    switch (outcome.kind) {
      case 'ok':
        return {
          url,
          status: outcome.status,
          raw: outcome.body,
          output: parseAgentReply(outcome.body),
          ok: true,
        };
      case 'http_error':
        return {
          url,
          status: outcome.status,
          raw: outcome.body,
          output: `Webhook response error: ${outcome.status}`,
          ok: false,
        };
      case 'timeout':
        return { url, status: 0, raw: '', output: 'The webhook did not answer in time.', ok: false };
      case 'too_large':
        return { url, status: 0, raw: '', output: 'The webhook answered with more than 1 MB.', ok: false };
      case 'refused':
      case 'network_error':
        return { url, status: 0, raw: '', output: outcome.message, ok: false };
    }
  }
}
