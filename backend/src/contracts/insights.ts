/**
 * Company Admin → Insights: GET /api/company/insights (owners and admins of the company named by
 * X-Company-Id; plain members 403). Counted by rollups kept as messages are stored, in whole hours (UTC);
 * active users and chats in whole days (UTC).
 */

/** Why a reply failed, as the Insights count it. */
export const INSIGHT_FAILURE_KINDS = [
  'timeout',
  'http_status',
  'malformed',
  'ssrf_refused',
  'callback_expired',
  'network',
  'agent_error',
  'other',
] as const;
export type InsightFailureKind = (typeof INSIGHT_FAILURE_KINDS)[number];

export type InsightsBucket = 'hour' | 'day';

/** The longest range one question may cover. */
export const INSIGHTS_MAX_RANGE_DAYS = 90;

export interface InsightsQuery {
  /** ISO 8601; 24 hours before `to` by default. Widened to the start of its hour. */
  from?: string;
  /** ISO 8601; now by default. Widened to the end of its hour. */
  to?: string;
  /** One agent only. */
  agentId?: string;
  /** The series' step: 'hour' by default up to 2 days, 'day' beyond. */
  bucket?: InsightsBucket;
}

/** Percentiles read from fixed buckets (interpolated inside one), in milliseconds; null with no sample. */
export interface LatencySummary {
  count: number;
  p50Ms: number | null;
  p95Ms: number | null;
  avgMs: number | null;
}

export interface InsightsCounters {
  /** User messages sent to the agent. */
  messages: number;
  replies: number;
  /** Members who sent a message (distinct, over the range's whole days). */
  activeUsers: number;
  /** Chats with a message (distinct, over the range's whole days). */
  chats: number;
  /** Replies that failed, plus answers the agent sent but nothing could be read from ('malformed'). */
  failed: number;
  failures: Record<InsightFailureKind, number>;
  /** Webhook attempts that failed and were tried again. */
  retries: number;
  /** From the user's message stored to the reply stored. */
  latency: LatencySummary;
  /** Streamed replies: from the user's message stored to the first piece of text. */
  firstChunk: LatencySummary;
  thumbsUp: number;
  thumbsDown: number;
}

export interface InsightsAgentRow extends InsightsCounters {
  agentId: string;
  /** Null when the agent has been deleted since. */
  agentName: string | null;
}

export interface InsightsPoint {
  /** The start of the hour or day (ISO 8601, UTC). */
  at: string;
  messages: number;
  replies: number;
  failed: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

export interface InsightsReport {
  /** The range counted, widened to whole hours. */
  from: string;
  to: string;
  bucket: InsightsBucket;
  total: InsightsCounters;
  /** Agents with anything counted in the range, busiest first. */
  agents: InsightsAgentRow[];
  /** Every hour or day of the range, oldest first (zeros included). */
  series: InsightsPoint[];
}
