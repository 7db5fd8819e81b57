import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';

interface QuotaRow {
  stored_bytes_limit: string | null;
}

/** The company_quotas rows and the usage they limit. */
@Injectable()
export class CompanyQuotasRepository {
  constructor(private readonly db: Database) {}

  /** The company's limits (null: none set), locked until `tx` ends when `lock` is given. */
  async limits(companyId: string, tx?: Tx, lock = false): Promise<{ storedBytesLimit: number | null }> {
    const rows: QuotaRow[] = await this.db.query(
      `SELECT stored_bytes_limit FROM company_quotas WHERE company_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [companyId],
      tx,
    );
    return { storedBytesLimit: toNumber(rows[0]?.stored_bytes_limit ?? null) };
  }

  /** Sets the stored-bytes limit (null: none); the row is made on first use. */
  async setStoredBytesLimit(tx: Tx, companyId: string, limit: number | null): Promise<void> {
    await this.db.execute(
      `INSERT INTO company_quotas (company_id, stored_bytes_limit) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET stored_bytes_limit = EXCLUDED.stored_bytes_limit, updated_at = now()`,
      [companyId, limit],
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
}

function toNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}
