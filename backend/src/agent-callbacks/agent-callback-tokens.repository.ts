import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../chats/chats.repository';

/** A token issued for a message, as the callback check needs it. */
export interface IssuedToken {
  tokenHash: Buffer;
  /** Judged by the database's clock, like the sweep: api nodes' clocks may differ. */
  expired: boolean;
  used: boolean;
}

/** A reply that waits for a callback (the webhook answered 202) and whose deadline has passed. */
export interface OverdueCallback {
  messageId: string;
  deadlineMinutes: number;
}

/** The SQL of agent callback tokens. Statements go by message id: callers are jobs and token holders. */
@Injectable()
export class AgentCallbackTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a token's hash for a message still waiting for its reply, expiring after the deadline of the
   * message's agent; false when the message no longer waits.
   */
  async insert(messageId: string, tokenHash: Buffer): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO agent_callback_tokens (token_hash, message_id, expires_at)
       SELECT $1, m.id, now() + a.callback_deadline_minutes * interval '1 minute'
       FROM messages m JOIN chats c ON c.id = m.chat_id JOIN agents a ON a.id = c.agent_id
       WHERE m.id = $2 AND m.reply_status = 'pending'
       RETURNING message_id`,
      [tokenHash, messageId],
    );
    return rows.length > 0;
  }

  /** The webhook answered 202 Accepted: the message's reply now comes by callback, until the deadline. */
  async markAccepted(messageId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE agent_callback_tokens SET accepted_at = now() WHERE message_id = $1 AND accepted_at IS NULL`,
      [messageId],
    );
  }

  /** Every token issued for a message (one per delivery attempt: a handful at most). */
  async forMessage(messageId: string): Promise<IssuedToken[]> {
    const rows: Array<{ token_hash: Buffer; expired: boolean; used: boolean }> = await this.dataSource.query(
      `SELECT token_hash, expires_at <= now() AS expired, used_at IS NOT NULL AS used
       FROM agent_callback_tokens WHERE message_id = $1`,
      [messageId],
    );
    return rows.map((row) => ({ tokenHash: row.token_hash, expired: row.expired, used: row.used }));
  }

  async markUsed(tokenHash: Buffer): Promise<void> {
    await this.dataSource.query(
      `UPDATE agent_callback_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL`,
      [tokenHash],
    );
  }

  /** Where a message's reply stands ('pending', 'replied', 'failed'...), or null when it is gone. */
  async replyStatus(messageId: string): Promise<string | null> {
    const rows: Array<{ reply_status: string | null }> = await this.dataSource.query(
      `SELECT reply_status FROM messages WHERE id = $1`,
      [messageId],
    );
    return rows[0] ? (rows[0].reply_status ?? 'none') : null;
  }

  /**
   * Replies still pending whose webhook answered 202 and whose latest accepted token has expired: the
   * agent's deadline passed without a callback.
   */
  async overdue(limit: number): Promise<OverdueCallback[]> {
    const rows: Array<{ message_id: string; minutes: number }> = await this.dataSource.query(
      `SELECT message_id, minutes FROM (
         SELECT DISTINCT ON (t.message_id) t.message_id, t.expires_at,
           round(extract(epoch FROM t.expires_at - t.created_at) / 60)::int AS minutes
         FROM agent_callback_tokens t JOIN messages m ON m.id = t.message_id AND m.reply_status = 'pending'
         WHERE t.accepted_at IS NOT NULL
         ORDER BY t.message_id, t.expires_at DESC
       ) latest WHERE expires_at <= now() LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ messageId: row.message_id, deadlineMinutes: row.minutes }));
  }

  /** Tokens a day past their deadline can only ever be refused: they go. */
  async deleteExpired(olderThanMs: number): Promise<number> {
    const result: unknown = await this.dataSource.query(
      `DELETE FROM agent_callback_tokens WHERE expires_at < now() - ($1::int * interval '1 millisecond')
       RETURNING token_hash`,
      [olderThanMs],
    );
    return returnedRows(result).length;
  }
}
