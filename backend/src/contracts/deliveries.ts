/**
 * Company Admin → Delivery log: every webhook call a reply job made for the company's chats, with its
 * outcome; the request and answer bodies (redacted of secrets, truncated) while the company's retention
 * keeps them; Replay of a failed one. Owners and admins of the company named by X-Company-Id only.
 */
import { INSIGHT_FAILURE_KINDS, type InsightFailureKind } from './insights';

/**
 * How a delivery ended. `delivered`: the agent's answer was stored; `accepted`: it answered 202 and the
 * reply comes by callback (the row moves on when it does, or when the deadline passes); `retrying`: an
 * attempt failed and the queue tries again; `stopped`: the user pressed Stop. The rest are the reply
 * failure kinds the Insights count.
 */
export const DELIVERY_OUTCOMES = [
  'delivered',
  'accepted',
  'retrying',
  'stopped',
  ...INSIGHT_FAILURE_KINDS,
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** The outcomes a Replay is offered for: the failures. */
export const FAILED_DELIVERY_OUTCOMES: readonly InsightFailureKind[] = INSIGHT_FAILURE_KINDS;

/** One page of the log holds at most this many rows. */
export const DELIVERY_PAGE_SIZE = 50;
/** A bulk replay replays at most this many deliveries (the oldest first); the rest are counted. */
export const DELIVERY_BULK_REPLAY_CAP = 100;
/** Bodies are kept at most this long, whatever the setting. */
export const DELIVERY_RETENTION_MAX_DAYS = 30;
export const DELIVERY_RETENTION_DEFAULT_DAYS = 7;
/** Rows (without their bodies by then) are deleted this long after the call. */
export const DELIVERY_HORIZON_DAYS = 90;
/** Each body is cut to this many characters before it is stored. */
export const DELIVERY_BODY_MAX_CHARS = 16_384;

export interface DeliveryView {
  id: string;
  agentId: string;
  /** The agent's name now; null when it was deleted. */
  agentName: string | null;
  chatId: string | null;
  /** The user message the call was for. */
  messageId: string;
  /** The reply stored from it, when one was. */
  replyId: string | null;
  /** 0: the first answer; one more for each regenerate, edit or replay of the message. */
  round: number;
  startedAt: string;
  /** Of the last attempt. */
  durationMs: number;
  attempts: number;
  outcome: DeliveryOutcome;
  httpStatus: number | null;
  /** The Standard Webhooks `webhook-id` the call carried (the agent's logs have it). */
  requestId: string;
  /** Why it failed, as the user was told. */
  error: string | null;
  /** This delivery is a replay of that one. */
  replayOf: string | null;
  /** When this delivery was replayed (a failed one is replayed once). */
  replayedAt: string | null;
}

export interface DeliveryDetail extends DeliveryView {
  /** False past the company's retention or with retention off: the bodies are gone. */
  bodiesKept: boolean;
  /** The JSON the webhook was sent, and its headers, redacted. */
  requestHeaders: Record<string, string> | null;
  requestBody: string | null;
  /** The answer as read (a streamed answer's text), redacted. */
  responseBody: string | null;
}

export interface DeliveryPage {
  deliveries: DeliveryView[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextCursor: string | null;
}

export interface DeliveryListQuery {
  agentId?: string;
  outcome?: DeliveryOutcome;
  /** The nextCursor of the page before. */
  before?: string;
  limit?: number;
}

export interface BulkReplayRequest {
  agentId: string;
  /** ISO 8601: failed deliveries from then on. */
  since: string;
}

export interface BulkReplayResult {
  /** Deliveries asked again (each through the queue). */
  replayed: number;
  /** Failed ones that could not be (the user wrote since, the chat or agent is gone...). */
  skipped: number;
  /** Failed ones beyond the cap, not tried: replay again to take them. */
  overCap: number;
}

export interface DeliverySettings {
  /** Days the bodies are kept; 0: not kept. */
  retentionDays: number;
}
