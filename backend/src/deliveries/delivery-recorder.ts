import { Injectable, Logger } from '@nestjs/common';
import type { DeliveryOutcome } from '../contracts/deliveries';
import { DeliveriesRepository, type DeliveryRecord } from './deliveries.repository';
import { redactHeaders, redactJson, redactText } from './redact';

/** One webhook call of a reply job as the job saw it. */
export interface WebhookCall {
  companyId: string;
  agentId: string;
  chatId: string;
  messageId: string;
  round: number;
  startedAt: number;
  durationMs: number;
  attempt: number;
  outcome: DeliveryOutcome;
  httpStatus: number | null;
  /** The webhook-id header. */
  requestId: string;
  error: string | null;
  replayOf: string | null;
  headers: Record<string, string>;
  body: unknown;
  /** The answer as read (a stream's text), if any. */
  answer: string | null;
}

/**
 * Writes the delivery log's row for a reply job's webhook call: redacted, truncated, one statement (an
 * upsert per attempt, never per chunk). A failure here is logged, never the job's: the reply matters
 * more than its record.
 */
@Injectable()
export class DeliveryRecorder {
  private readonly logger = new Logger('Deliveries');

  constructor(private readonly deliveries: DeliveriesRepository) {}

  /** The row of a call: redacted and truncated (to go with the statement that stores the reply). */
  prepare(call: WebhookCall): DeliveryRecord {
    return {
      companyId: call.companyId,
      agentId: call.agentId,
      chatId: call.chatId,
      messageId: call.messageId,
      round: call.round,
      startedAt: new Date(call.startedAt),
      durationMs: Math.max(0, Math.round(call.durationMs)),
      attempts: call.attempt,
      outcome: call.outcome,
      httpStatus: call.httpStatus,
      requestId: call.requestId,
      error: call.error,
      replayOf: call.replayOf,
      requestHeaders: redactHeaders(call.headers),
      requestBody: redactJson(call.body),
      responseBody: call.answer === null ? null : redactText(call.answer),
    };
  }

  /** Writes the row of a call on its own (a failure, a retry, a 202...). */
  async record(call: WebhookCall): Promise<void> {
    try {
      await this.deliveries.record(this.prepare(call));
    } catch (error) {
      this.logger.warn(`Could not record the delivery for ${call.messageId}: ${String(error)}`);
    }
  }
}
