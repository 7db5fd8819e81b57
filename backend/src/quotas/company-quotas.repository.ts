import { Injectable } from '@nestjs/common';
import type { CompanyQuotas } from '../contracts/company-quotas';
import { Database, type Tx } from '../database/database';

interface QuotaRow {
  stored_bytes_limit: string | null;
  messages_per_user_per_day: number | null;
  messages_per_company_per_month: number | null;
  updated_at: Date;
}

/** The limits with when they last changed (null: never set). */
export interface StoredQuotas extends CompanyQuotas {
  updatedAt: Date | null;
}

const COLUMNS: Record<keyof CompanyQuotas, string> = {
  storedBytesLimit: 'stored_bytes_limit',
  messagesPerUserPerDay: 'messages_per_user_per_day',
  messagesPerCompanyPerMonth: 'messages_per_company_per_month',
};

/** The company_quotas rows and the usage they limit. */
@Injectable()
export class CompanyQuotasRepository {
  constructor(private readonly db: Database) {}

  /** The company's limits (null: none set), locked until `tx` ends when `lock` is given. */
  async limits(companyId: string, tx?: Tx, lock = false): Promise<StoredQuotas> {
    const rows: QuotaRow[] = await this.db.query(
      `SELECT stored_bytes_limit, messages_per_user_per_day, messages_per_company_per_month, updated_at
         FROM company_quotas WHERE company_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [companyId],
      tx,
    );
    const row = rows[0];
    return {
      storedBytesLimit: toNumber(row?.stored_bytes_limit ?? null),
      messagesPerUserPerDay: row?.messages_per_user_per_day ?? null,
      messagesPerCompanyPerMonth: row?.messages_per_company_per_month ?? null,
      updatedAt: row?.updated_at ?? null,
    };
  }

  /** Sets the limits given (null: none; left out: unchanged); the row is made on first use. */
  async setLimits(tx: Tx, companyId: string, changes: Partial<CompanyQuotas>): Promise<void> {
    const keys = (Object.keys(COLUMNS) as Array<keyof CompanyQuotas>).filter(
      (key) => changes[key] !== undefined,
    );
    if (!keys.length) return;
    const columns = keys.map((key) => COLUMNS[key]);
    await this.db.execute(
      `INSERT INTO company_quotas (company_id, ${columns.join(', ')})
       VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})
       ON CONFLICT (company_id) DO UPDATE SET
         ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = clock_timestamp()`,
      [companyId, ...keys.map((key) => changes[key] ?? null)],
      tx,
    );
  }

  /** The bytes the company's attachments take, counting uploads under way at their declared size. */
  async storedBytesUsed(companyId: string, tx?: Tx): Promise<number> {
    const rows: Array<{ used: string }> = await this.db.query(
      `SELECT COALESCE(sum(size + reserved_bytes), 0)::text AS used FROM files
       WHERE company_id = $1 AND purpose = 'attachment'`,
      [companyId],
      tx,
    );
    return Number(rows[0].used);
  }

  /**
   * The user messages the company's members sent in [from, to) (whole hours), from the Insights
   * rollups: a few rows per hour, and a deleted chat's messages stay counted.
   */
  async companyMessages(companyId: string, from: Date, to: Date): Promise<number> {
    const rows = await this.db.prepared<{ n: number }>(
      'quotas.company-messages',
      `SELECT coalesce(sum(messages), 0)::int AS n FROM insights_hourly
        WHERE company_id = $1 AND hour >= $2 AND hour < $3`,
      [companyId, from, to],
    );
    return rows[0]?.n ?? 0;
  }

  /** The user messages a member sent in the company on a UTC day ('2026-11-28'), chats deleted or not. */
  async userMessages(companyId: string, userId: string, day: string): Promise<number> {
    const rows = await this.db.prepared<{ n: number }>(
      'quotas.user-messages',
      `SELECT coalesce(sum(messages), 0)::int AS n FROM insights_daily_chats
        WHERE company_id = $1 AND day = $2::date AND user_id = $3`,
      [companyId, day, userId],
    );
    return rows[0]?.n ?? 0;
  }
}

function toNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}
