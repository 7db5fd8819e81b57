import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../common/company-scope';
import { Database } from '../database/database';

/** A call as a transcript turn checks it. */
export interface VoiceCallCheck {
  chatId: string;
  agentId: string;
  /** Its time is up, by the database's clock (api nodes' clocks may differ). */
  expired: boolean;
}

/** The SQL of voice calls, always scoped by company and user. */
@Injectable()
export class VoiceCallsRepository {
  constructor(private readonly db: Database) {}

  /** Records a call the api started, live for `lifetimeMs`; returns its id. */
  async create(scope: OwnerScope, chatId: string, agentId: string, lifetimeMs: number): Promise<string> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO voice_calls (id, company_id, user_id, chat_id, agent_id, expires_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, now() + $5::int * interval '1 millisecond')
       RETURNING id`,
      [scope.companyId, scope.userId, chatId, agentId, lifetimeMs],
    );
    return rows[0].id;
  }

  /** The caller's own call in this company, or null (another user's or company's call is not found). */
  async find(scope: OwnerScope, callId: string): Promise<VoiceCallCheck | null> {
    const rows: Array<{ chat_id: string; agent_id: string; expired: boolean }> = await this.db.query(
      `SELECT chat_id, agent_id, expires_at <= now() AS expired FROM voice_calls
       WHERE id = $1 AND company_id = $2 AND user_id = $3`,
      [callId, scope.companyId, scope.userId],
    );
    const row = rows[0];
    return row ? { chatId: row.chat_id, agentId: row.agent_id, expired: row.expired } : null;
  }

  /** The call ended: turns still in flight may arrive within `graceMs`, none after. */
  async end(scope: OwnerScope, callId: string, graceMs: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE voice_calls SET expires_at = least(expires_at, now() + $4::int * interval '1 millisecond')
       WHERE id = $1 AND company_id = $2 AND user_id = $3 RETURNING id`,
      [callId, scope.companyId, scope.userId, graceMs],
    );
    return result.length > 0;
  }
}
