import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';
import type { CompanySsoEntity } from './company-sso.entity';

export type SsoConfigRow = Pick<
  CompanySsoEntity,
  'companyId' | 'enabled' | 'issuer' | 'clientId' | 'clientSecretSealed' | 'requireSso' | 'autoJoin'
>;

const COLUMNS = `company_id AS "companyId", enabled, issuer, client_id AS "clientId",
  client_secret_sealed AS "clientSecretSealed", require_sso AS "requireSso", auto_join AS "autoJoin"`;

/** The SQL of company_sso: one row per company that has set up single sign-on. */
@Injectable()
export class CompanySsoRepository {
  constructor(private readonly db: Database) {}

  async find(companyId: string, tx?: Tx): Promise<SsoConfigRow | null> {
    const rows: SsoConfigRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM company_sso WHERE company_id = $1`,
      [companyId],
      tx,
    );
    return rows[0] ?? null;
  }

  /** Writes the whole configuration; a null sealed secret keeps the saved one. */
  async upsert(tx: Tx, values: SsoConfigRow): Promise<void> {
    await this.db.query(
      `INSERT INTO company_sso (company_id, enabled, issuer, client_id, client_secret_sealed, require_sso, auto_join)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (company_id) DO UPDATE SET enabled = EXCLUDED.enabled, issuer = EXCLUDED.issuer,
         client_id = EXCLUDED.client_id,
         client_secret_sealed = COALESCE(EXCLUDED.client_secret_sealed, company_sso.client_secret_sealed),
         require_sso = EXCLUDED.require_sso, auto_join = EXCLUDED.auto_join, updated_at = now()`,
      [
        values.companyId,
        values.enabled,
        values.issuer,
        values.clientId,
        values.clientSecretSealed,
        values.requireSso,
        values.autoJoin,
      ],
      tx,
    );
  }

  /** Turns sign-in through the provider off; true when it was on. */
  async disable(tx: Tx, companyId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE company_sso SET enabled = false, updated_at = now() WHERE company_id = $1 AND enabled RETURNING company_id`,
      [companyId],
      tx,
    );
    return rows.length > 0;
  }

  /** The ids of the given companies that have single sign-on on (for lists of companies). */
  async enabledAmong(companyIds: string[]): Promise<Set<string>> {
    if (!companyIds.length) return new Set();
    const rows: Array<{ companyId: string }> = await this.db.query(
      `SELECT company_id AS "companyId" FROM company_sso WHERE enabled AND company_id = ANY($1::uuid[])`,
      [companyIds],
    );
    return new Set(rows.map((r) => r.companyId));
  }
}
