import { Injectable } from '@nestjs/common';
import { type Keyset, keysetAt } from '../common/keyset-cursor';
import {
  DELIVERY_HORIZON_DAYS,
  type DeliveryDetail,
  type DeliveryOutcome,
  type DeliveryView,
  FAILED_DELIVERY_OUTCOMES,
} from '../contracts/deliveries';
import { Database, type Tx } from '../database/database';

/** What a reply job's attempt writes: one statement, an upsert on (message, round). */
export interface DeliveryRecord {
  companyId: string;
  agentId: string;
  chatId: string;
  messageId: string;
  round: number;
  startedAt: Date;
  durationMs: number;
  attempts: number;
  outcome: DeliveryOutcome;
  httpStatus: number | null;
  requestId: string;
  error: string | null;
  replayOf: string | null;
  requestHeaders: Record<string, string> | null;
  requestBody: string | null;
  responseBody: string | null;
}

/**
 * The attempt's row (the first attempt's start stays), its parameters from `$${from}` on (recordParams'
 * order). The bodies only when the company keeps them. `accepted` (202: the reply comes by callback) is
 * read against the message, which a quick callback may have answered already; a callback or deadline
 * later moves the row on (messages.repository's statements). `replyId`: the SQL of the stored reply's
 * id (by default looked up by the unique reply_to index). Also a CTE of the statement that stores the
 * reply (one statement, one commit for both).
 */
export function recordDeliverySql(from: number, replyId?: string, onlyIf = 'true'): string {
  const p = (n: number) => `$${from + n - 1}`;
  const reply =
    replyId ??
    `CASE WHEN ${p(9)} IN ('delivered', 'malformed', 'accepted', 'timeout', 'agent_error')
     THEN (SELECT r.id FROM messages r WHERE r.reply_to = ${p(4)}::uuid) END`;
  return `INSERT INTO webhook_deliveries AS d (company_id, agent_id, chat_id, message_id, round,
   started_at, duration_ms, attempts, outcome, http_status, request_id, error, replay_of, request_headers,
   request_body, response_body, reply_id)
 SELECT ${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::uuid, ${p(4)}::uuid, ${p(5)}::int, ${p(6)}::timestamptz,
   ${p(7)}::int, ${p(8)}::int,
   CASE WHEN ${p(9)}::text = 'accepted' THEN coalesce((SELECT CASE m.reply_status WHEN 'pending' THEN 'accepted'
       WHEN 'replied' THEN 'delivered' WHEN 'failed' THEN coalesce(m.reply_failure, 'other') ELSE 'stopped' END
     FROM messages m WHERE m.id = ${p(4)}::uuid AND m.reply_round = ${p(5)}::int), 'accepted') ELSE ${p(9)}::text END,
   ${p(10)}::int, ${p(11)}::text, ${p(12)}::text, ${p(13)}::uuid,
   CASE WHEN co.delivery_retention_days > 0 THEN ${p(14)}::jsonb END,
   CASE WHEN co.delivery_retention_days > 0 THEN ${p(15)}::text END,
   CASE WHEN co.delivery_retention_days > 0 THEN ${p(16)}::text END,
   ${reply}
 FROM companies co WHERE co.id = ${p(1)}::uuid AND ${onlyIf}
 ON CONFLICT (message_id, round) DO UPDATE SET duration_ms = EXCLUDED.duration_ms,
   attempts = EXCLUDED.attempts, outcome = EXCLUDED.outcome, http_status = EXCLUDED.http_status,
   error = EXCLUDED.error, request_headers = EXCLUDED.request_headers,
   request_body = EXCLUDED.request_body, response_body = EXCLUDED.response_body, reply_id = EXCLUDED.reply_id,
   replay_of = coalesce(d.replay_of, EXCLUDED.replay_of)`;
}

const RECORD_SQL = recordDeliverySql(1);

/** A record's values in the order recordDeliverySql numbers them. */
export function recordParams(delivery: DeliveryRecord): unknown[] {
  return [
    delivery.companyId,
    delivery.agentId,
    delivery.chatId,
    delivery.messageId,
    delivery.round,
    // The same instant as the Date: pg's own conversion of a Date (in local time) costs more.
    delivery.startedAt.toISOString(),
    delivery.durationMs,
    delivery.attempts,
    delivery.outcome,
    delivery.httpStatus,
    delivery.requestId.slice(0, 100),
    delivery.error?.slice(0, 500) ?? null,
    delivery.replayOf,
    delivery.requestHeaders ? JSON.stringify(delivery.requestHeaders) : null,
    delivery.requestBody,
    delivery.responseBody,
  ];
}

interface DeliveryRow {
  id: string;
  agent_id: string;
  agent_name: string | null;
  chat_id: string;
  message_id: string;
  reply_id: string | null;
  round: number;
  started_at: Date;
  at: string;
  duration_ms: number;
  attempts: number;
  outcome: DeliveryOutcome;
  http_status: number | null;
  request_id: string;
  error: string | null;
  replay_of: string | null;
  replayed_at: Date | null;
}

const VIEW_COLUMNS = `d.id, d.agent_id, a.name AS agent_name, d.chat_id, d.message_id, d.reply_id, d.round,
  d.started_at, ${keysetAt('d.started_at')} AS at, d.duration_ms, d.attempts, d.outcome, d.http_status,
  d.request_id, d.error, d.replay_of, d.replayed_at`;

function toView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    agentId: row.agent_id,
    agentName: row.agent_name,
    chatId: row.chat_id,
    messageId: row.message_id,
    replyId: row.reply_id,
    round: row.round,
    startedAt: row.started_at.toISOString(),
    durationMs: row.duration_ms,
    attempts: row.attempts,
    outcome: row.outcome,
    httpStatus: row.http_status,
    requestId: row.request_id,
    error: row.error,
    replayOf: row.replay_of,
    replayedAt: row.replayed_at?.toISOString() ?? null,
  };
}

/** A delivery as a replay checks it, locked: its message, chat and agent as they are now. */
export interface ReplayTarget {
  id: string;
  outcome: DeliveryOutcome;
  round: number;
  replayedAt: Date | null;
  messageId: string;
  chatId: string;
  agentId: string;
  /** Null when the chat is gone. */
  chatUserId: string | null;
  /** Null when the message is gone. */
  messageRound: number | null;
  replyStatus: string | null;
  /** False when the chat's agent is gone. */
  agentExists: boolean;
}

/** The SQL of the delivery log; every read and change is scoped by the company. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly db: Database) {}

  async record(delivery: DeliveryRecord): Promise<void> {
    await this.db.prepared('deliveries.record', RECORD_SQL, recordParams(delivery));
  }

  /** Newest first; `outcome: 'failed'` is any failure kind. */
  async page(
    companyId: string,
    query: { agentId?: string; outcome?: DeliveryOutcome | 'failed'; before?: Keyset; limit: number },
  ): Promise<Array<{ view: DeliveryView; keyset: Keyset }>> {
    const outcomes =
      query.outcome === 'failed' ? [...FAILED_DELIVERY_OUTCOMES] : query.outcome ? [query.outcome] : null;
    const rows = await this.db.query<DeliveryRow>(
      `SELECT ${VIEW_COLUMNS} FROM webhook_deliveries d
       LEFT JOIN agents a ON a.id = d.agent_id AND a.company_id = d.company_id
       WHERE d.company_id = $1 AND ($2::uuid IS NULL OR d.agent_id = $2::uuid)
         AND ($3::text[] IS NULL OR d.outcome = ANY($3::text[]))
         AND ($4::timestamptz IS NULL OR (d.started_at, d.id) < ($4::timestamptz, $5::uuid))
       ORDER BY d.started_at DESC, d.id DESC LIMIT $6`,
      [
        companyId,
        query.agentId ?? null,
        outcomes,
        query.before?.at ?? null,
        query.before?.id ?? null,
        query.limit,
      ],
    );
    return rows.map((row) => ({ view: toView(row), keyset: { at: row.at, id: row.id } }));
  }

  /** One delivery of the company with its bodies, unless past the company's retention. */
  async find(companyId: string, id: string): Promise<DeliveryDetail | null> {
    const rows = await this.db.query<
      DeliveryRow & {
        kept: boolean;
        request_headers: Record<string, string> | null;
        request_body: string | null;
        response_body: string | null;
      }
    >(
      `SELECT ${VIEW_COLUMNS}, k.kept,
         CASE WHEN k.kept THEN d.request_headers END AS request_headers,
         CASE WHEN k.kept THEN d.request_body END AS request_body,
         CASE WHEN k.kept THEN d.response_body END AS response_body
       FROM webhook_deliveries d JOIN companies c ON c.id = d.company_id
       LEFT JOIN agents a ON a.id = d.agent_id AND a.company_id = d.company_id
       CROSS JOIN LATERAL (SELECT c.delivery_retention_days > 0
         AND d.started_at >= now() - c.delivery_retention_days * interval '1 day'
         AND (d.request_body IS NOT NULL OR d.response_body IS NOT NULL) AS kept) k
       WHERE d.company_id = $1 AND d.id = $2`,
      [companyId, id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...toView(row),
      bodiesKept: row.kept,
      requestHeaders: row.request_headers,
      requestBody: row.request_body,
      responseBody: row.response_body,
    };
  }

  /** Locks the company's delivery (a second replay waits here, then finds it replayed). */
  async lockForReplay(tx: Tx, companyId: string, id: string): Promise<ReplayTarget | null> {
    const rows = await this.db.query<{
      id: string;
      outcome: DeliveryOutcome;
      round: number;
      replayed_at: Date | null;
      message_id: string;
      chat_id: string;
      agent_id: string;
      chat_user_id: string | null;
      message_round: number | null;
      reply_status: string | null;
      agent_exists: boolean;
    }>(
      `SELECT d.id, d.outcome, d.round, d.replayed_at, d.message_id, d.chat_id, d.agent_id,
         c.user_id AS chat_user_id, m.reply_round AS message_round, m.reply_status,
         (a.id IS NOT NULL) AS agent_exists
       FROM webhook_deliveries d
       LEFT JOIN chats c ON c.id = d.chat_id AND c.company_id = d.company_id
       LEFT JOIN messages m ON m.id = d.message_id AND m.chat_id = c.id
       LEFT JOIN agents a ON a.id = c.agent_id AND a.company_id = d.company_id
       WHERE d.company_id = $1 AND d.id = $2
       FOR UPDATE OF d`,
      [companyId, id],
      tx,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      outcome: row.outcome,
      round: row.round,
      replayedAt: row.replayed_at,
      messageId: row.message_id,
      chatId: row.chat_id,
      agentId: row.agent_id,
      chatUserId: row.chat_user_id,
      messageRound: row.message_round,
      replyStatus: row.reply_status,
      agentExists: row.agent_exists,
    };
  }

  async markReplayed(tx: Tx, id: string, actorId: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET replayed_at = now(), replayed_by = $2 WHERE id = $1`,
      [id, actorId],
      tx,
    );
  }

  /**
   * The failed deliveries of an agent since a time that were not replayed, oldest first: for each
   * message only its latest round's (an earlier one was asked again already). `total`: all of them.
   */
  async failedSince(
    companyId: string,
    agentId: string,
    since: Date,
    limit: number,
  ): Promise<{ ids: string[]; total: number }> {
    const rows = await this.db.query<{ id: string; total: number }>(
      `SELECT id, count(*) OVER ()::int AS total FROM (
         SELECT DISTINCT ON (d.message_id) d.id, d.started_at, d.outcome, d.replayed_at
         FROM webhook_deliveries d
         WHERE d.company_id = $1 AND d.agent_id = $2 AND d.started_at >= $3
         ORDER BY d.message_id, d.round DESC
       ) latest
       WHERE outcome = ANY($4::text[]) AND replayed_at IS NULL
       ORDER BY started_at LIMIT $5`,
      [companyId, agentId, since, [...FAILED_DELIVERY_OUTCOMES], limit],
    );
    return { ids: rows.map((r) => r.id), total: rows[0]?.total ?? 0 };
  }

  async retention(companyId: string, tx?: Tx): Promise<number | null> {
    const rows = await this.db.query<{ days: number }>(
      `SELECT delivery_retention_days AS days FROM companies WHERE id = $1`,
      [companyId],
      tx,
    );
    return rows[0]?.days ?? null;
  }

  /** Sets the retention; the days it had before (null: no such company). */
  async setRetention(tx: Tx, companyId: string, days: number): Promise<number | null> {
    const rows = await this.db.query<{ before: number }>(
      `UPDATE companies c SET delivery_retention_days = $2 FROM companies o
       WHERE c.id = $1 AND o.id = c.id RETURNING o.delivery_retention_days AS before`,
      [companyId, days],
      tx,
    );
    return rows[0]?.before ?? null;
  }

  /** Clears the bodies of up to `batch` deliveries past their company's retention; how many. */
  async clearExpiredBodies(batch: number): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `WITH expired AS (
         SELECT d.id FROM webhook_deliveries d JOIN companies c ON c.id = d.company_id
         WHERE (d.request_body IS NOT NULL OR d.response_body IS NOT NULL OR d.request_headers IS NOT NULL)
           AND d.started_at < now() - c.delivery_retention_days * interval '1 day'
         LIMIT $1 FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET request_headers = NULL, request_body = NULL, response_body = NULL
       FROM expired e WHERE d.id = e.id RETURNING d.id`,
      [batch],
    );
    return rows.length;
  }

  /** Deletes up to `batch` deliveries older than DELIVERY_HORIZON_DAYS; how many. */
  async deleteBeyondHorizon(batch: number): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE started_at < now() - $1::int * interval '1 day'
         LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
      [DELIVERY_HORIZON_DAYS, batch],
    );
    return rows.length;
  }
}
