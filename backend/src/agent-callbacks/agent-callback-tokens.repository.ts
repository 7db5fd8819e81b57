import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** What a callback with a verified token needs to know, in one read. */
export interface CallbackCheck {
  /** 'pending', 'replied', 'failed', 'skipped', 'none'; null when the message is gone. */
  replyStatus: string | null;
  /** The token's expiry has passed, by the database's clock (api nodes' clocks may differ). */
  expired: boolean;
  /** Milliseconds from now to the token's expiry, by the database's clock (negative once expired). */
  msLeft: number;
  /** The agent's deadline in minutes when its webhook answered 202 (a wait exists); null otherwise. */
  deadlineMinutes: number | null;
  /** The round of the reply the message waits for (or last got); null when the message is gone. */
  round: number | null;
}

/** A reply that waits for a callback (the webhook answered 202) and whose deadline has passed. */
export interface OverdueCallback {
  messageId: string;
  deadlineMinutes: number;
}

/**
 * The SQL of agent callbacks. Tokens are not stored (callback-token.ts); only a message whose webhook
 * answered 202 gets a row (agent_callback_waits). Statements go by message id: callers are jobs and
 * token holders.
 */
@Injectable()
export class AgentCallbackTokensRepository {
  constructor(private readonly db: Database) {}

  /**
   * The webhook answered 202 Accepted: the message's reply now comes by callback until `expiresAtMs` (the
   * accepted token's expiry, Unix ms). A second 202 for the message (a job run twice) keeps the
   * later deadline.
   */
  async markAwaiting(messageId: string, expiresAtMs: number, deadlineMinutes: number): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_callback_waits AS w (message_id, expires_at, deadline_minutes)
       VALUES ($1, timestamptz 'epoch' + $2::bigint * interval '1 millisecond', $3)
       ON CONFLICT (message_id) DO UPDATE SET expires_at = greatest(w.expires_at, excluded.expires_at),
         deadline_minutes = excluded.deadline_minutes`,
      [messageId, expiresAtMs, deadlineMinutes],
    );
  }

  /** Where the message's reply stands and whether a token expiring at `expiresAtMs` has expired. */
  async check(messageId: string, expiresAtMs: number): Promise<CallbackCheck> {
    const rows: Array<{
      reply_status: string | null;
      expired: boolean;
      ms_left: number;
      deadline_minutes: number | null;
      reply_round: number | null;
    }> = await this.db.query(
      `SELECT timestamptz 'epoch' + $2::bigint * interval '1 millisecond' <= now() AS expired,
         ($2::bigint - extract(epoch FROM now()) * 1000)::float8 AS ms_left,
         (SELECT coalesce(m.reply_status, 'none') FROM messages m WHERE m.id = $1) AS reply_status,
         (SELECT m.reply_round FROM messages m WHERE m.id = $1) AS reply_round,
         (SELECT w.deadline_minutes FROM agent_callback_waits w WHERE w.message_id = $1) AS deadline_minutes`,
      [messageId, expiresAtMs],
    );
    const row = rows[0];
    return {
      replyStatus: row.reply_status,
      expired: row.expired,
      msLeft: row.ms_left,
      deadlineMinutes: row.deadline_minutes,
      round: row.reply_round,
    };
  }

  /** Where a message's reply stands ('pending', 'replied', 'failed'...), or null when it is gone. */
  async replyStatus(messageId: string): Promise<string | null> {
    const rows: Array<{ reply_status: string | null }> = await this.db.query(
      `SELECT reply_status FROM messages WHERE id = $1`,
      [messageId],
    );
    return rows[0] ? (rows[0].reply_status ?? 'none') : null;
  }

  /** Replies still pending whose webhook answered 202 and whose deadline has passed. */
  async overdue(limit: number): Promise<OverdueCallback[]> {
    const rows: Array<{ message_id: string; deadline_minutes: number }> = await this.db.query(
      `SELECT w.message_id, w.deadline_minutes
       FROM agent_callback_waits w JOIN messages m ON m.id = w.message_id AND m.reply_status = 'pending'
       WHERE w.expires_at <= now() ORDER BY w.expires_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ messageId: row.message_id, deadlineMinutes: row.deadline_minutes }));
  }

  /** Waits long past their deadline are settled one way or another (the sweep failed them): they go. */
  async deleteExpired(olderThanMs: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM agent_callback_waits WHERE expires_at < now() - ($1::int * interval '1 millisecond')
       RETURNING message_id`,
      [olderThanMs],
    );
    return result.length;
  }
}
