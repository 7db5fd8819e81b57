import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';
import type { ExternalIdentityEntity } from './external-identity.entity';

type IdentityRow = Pick<ExternalIdentityEntity, 'userId' | 'companyId' | 'issuer' | 'subject' | 'email'>;

const COLUMNS = `user_id AS "userId", company_id AS "companyId", issuer, subject, email`;

/** The SQL of external_identities: accounts linked to a provider's `iss` + `sub`. */
@Injectable()
export class ExternalIdentitiesRepository {
  constructor(private readonly db: Database) {}

  async findBySubject(issuer: string, subject: string, tx?: Tx): Promise<IdentityRow | null> {
    const rows: IdentityRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM external_identities WHERE issuer = $1 AND subject = $2`,
      [issuer, subject],
      tx,
    );
    return rows[0] ?? null;
  }

  async findForUser(userId: string, issuer: string, tx?: Tx): Promise<IdentityRow | null> {
    const rows: IdentityRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM external_identities WHERE user_id = $1 AND issuer = $2`,
      [userId, issuer],
      tx,
    );
    return rows[0] ?? null;
  }

  async insert(tx: Tx, values: IdentityRow): Promise<void> {
    await this.db.query(
      `INSERT INTO external_identities (user_id, company_id, issuer, subject, email) VALUES ($1, $2, $3, $4, $5)`,
      [values.userId, values.companyId, values.issuer, values.subject, values.email],
      tx,
    );
  }
}
