import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';
import type { CompanyDomainEntity } from './company-domain.entity';

export type DomainRow = Pick<
  CompanyDomainEntity,
  'id' | 'companyId' | 'domain' | 'verifiedAt' | 'proofEmail'
>;

const COLUMNS = `id, company_id AS "companyId", domain, verified_at AS "verifiedAt", proof_email AS "proofEmail"`;

/** The SQL of company_domains: the email domains companies claim, and their mailed proofs. */
@Injectable()
export class CompanyDomainsRepository {
  constructor(private readonly db: Database) {}

  async listForCompany(companyId: string, tx?: Tx): Promise<DomainRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM company_domains WHERE company_id = $1 ORDER BY domain`,
      [companyId],
      tx,
    );
  }

  /** The company that proved this domain, if any (a proved domain belongs to one company only). */
  async findProved(domain: string, tx?: Tx): Promise<DomainRow | null> {
    const rows: DomainRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM company_domains WHERE domain = $1 AND verified_at IS NOT NULL`,
      [domain],
      tx,
    );
    return rows[0] ?? null;
  }

  /**
   * Claims the domain for the company (or finds its claim) and sets a new outstanding proof, replacing
   * any earlier one; a proved claim keeps its proof and is answered as it is.
   */
  async claim(
    tx: Tx,
    values: { companyId: string; domain: string; email: string; tokenHash: string; expiresAt: Date },
  ): Promise<DomainRow> {
    const rows: DomainRow[] = await this.db.query(
      `INSERT INTO company_domains (company_id, domain, proof_email, proof_token_hash, proof_expires_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (company_id, domain) DO UPDATE SET
         proof_email = CASE WHEN company_domains.verified_at IS NULL THEN EXCLUDED.proof_email END,
         proof_token_hash = CASE WHEN company_domains.verified_at IS NULL THEN EXCLUDED.proof_token_hash END,
         proof_expires_at = CASE WHEN company_domains.verified_at IS NULL THEN EXCLUDED.proof_expires_at END
       RETURNING ${COLUMNS}`,
      [values.companyId, values.domain, values.email, values.tokenHash, values.expiresAt],
      tx,
    );
    return rows[0];
  }

  /** Removes the company's claim; false when it has no such domain. */
  async remove(tx: Tx, companyId: string, domainId: string): Promise<DomainRow | null> {
    const rows: DomainRow[] = await this.db.query(
      `DELETE FROM company_domains WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [companyId, domainId],
      tx,
    );
    return rows[0] ?? null;
  }

  /** The claim an unused, unexpired proof token belongs to, locked for the rest of `tx`. */
  async lockByProof(tx: Tx, tokenHash: string): Promise<(DomainRow & { companyName: string }) | null> {
    const rows: Array<DomainRow & { companyName: string }> = await this.db.query(
      `SELECT d.id, d.company_id AS "companyId", d.domain, d.verified_at AS "verifiedAt",
         d.proof_email AS "proofEmail", c.name AS "companyName"
       FROM company_domains d JOIN companies c ON c.id = d.company_id
       WHERE d.proof_token_hash = $1 AND d.verified_at IS NULL AND d.proof_expires_at > now()
       FOR UPDATE OF d`,
      [tokenHash],
      tx,
    );
    return rows[0] ?? null;
  }

  /** Marks the claim proved and uses its token up (the link works once). */
  async markProved(tx: Tx, domainId: string): Promise<void> {
    await this.db.query(
      `UPDATE company_domains SET verified_at = now(), proof_token_hash = NULL, proof_expires_at = NULL, proof_email = NULL
       WHERE id = $1`,
      [domainId],
      tx,
    );
  }
}
