import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { parseAgentReply, postWebhook, type WebhookOutcome } from '../webhooks/webhook-client';
import { DEMO_AGENT_PATH, demoAgentResponse } from './demo-agent';
import type { WebhookTestResultDto } from './dto/webhook-test.dto';

/** What the tester shows for an outcome: the raw answer, and the reply as a chat would show it. */
function toTestResult(url: string, outcome: WebhookOutcome): WebhookTestResultDto {
  const noAnswer = (output: string) => ({ url, status: 0, raw: '', output, ok: false });
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
      return noAnswer('The webhook did not answer in time.');
    case 'too_large':
      return noAnswer('The webhook answered with more than 1 MB.');
    case 'refused':
    case 'network_error':
      return noAnswer(outcome.message);
  }
}

/** The webhook tester: sends a message to the default agent's webhook and reads the answer both ways. */
@Injectable()
export class WebhookTestService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** DEFAULT_AGENT_WEBHOOK, else the built-in demo agent's address. */
  target(): string {
    return this.config.defaultAgentWebhook ?? `${this.config.appOrigin}${DEMO_AGENT_PATH}`;
  }

  async test(message: string): Promise<WebhookTestResultDto> {
    const url = this.target();
    if (!this.config.defaultAgentWebhook) {
      // The demo agent answers in-process, as it does for chats.
      const raw = JSON.stringify(demoAgentResponse(message));
      return { url, status: 200, raw, output: parseAgentReply(raw), ok: true };
    }
    const outcome = await postWebhook({
      url,
      body: { message },
      id: randomUUID(),
      timeoutMs: this.config.webhookTimeoutMs,
      allowedHosts: new Set(this.config.webhookAllowedHosts),
    });
    return toTestResult(url, outcome);
  }
}
