import { Injectable } from '@nestjs/common';
import { SSO_REFUSED } from '../auth/sessions.repository';
import { Database, type Tx } from '../database/database';
import type { CompanyRole } from './company-user.entity';
import type { CompanyMembershipDto } from './dto/company.dto';

interface MembershipRow {
  id: string;
  name: string;
  role: CompanyRole;
  created_at: Date;
  sso_required?: boolean;
}

/** A company as one of its members sees it: with their role. */
function toMembership(row: MembershipRow): CompanyMembershipDto {
  const membership: CompanyMembershipDto = {
    id: row.id,
    name: row.name,
    role: row.role,
    createdAt: row.created_at.toISOString(),
  };
  if (row.sso_required) membership.ssoRequired = true;
  return membership;
}

const MEMBERSHIP_SQL = `SELECT c.id, c.name, cu.role, c.created_at FROM company_users cu
  JOIN companies c ON c.id = cu.company_id WHERE cu.user_id = $1`;

/** Companies and memberships: every read goes through a membership of the user asking. */
@Injectable()
export class CompaniesRepository {
  constructor(private readonly db: Database) {}

  /** Inserts a company and its owner's membership, in the caller's transaction. */
  async insertWithOwner(tx: Tx, userId: string, name: string): Promise<CompanyMembershipDto> {
    const [company] = await this.db.query<{ id: string; name: string; created_at: Date }>(
      `INSERT INTO companies (name, created_by, owner_id) VALUES ($1, $2, $2) RETURNING id, name, created_at`,
      [name, userId],
      tx,
    );
    await this.db.query(
      `INSERT INTO company_users (company_id, user_id, role) VALUES ($1, $2, 'owner')`,
      [company.id, userId],
      tx,
    );
    return toMembership({ ...company, role: 'owner' });
  }

  /**
   * `sessionId`: the session asking, whose companies that refuse it their data ("members must use SSO")
   * are marked `ssoRequired`.
   */
  async listForUser(userId: string, sessionId?: string): Promise<CompanyMembershipDto[]> {
    const rows: MembershipRow[] = sessionId
      ? await this.db.query(
          `SELECT c.id, c.name, cu.role, c.created_at, ${SSO_REFUSED('cu.company_id', 'cu.role')} AS sso_required
           FROM company_users cu JOIN companies c ON c.id = cu.company_id
           JOIN sessions s ON s.id = $2 AND s.user_id = cu.user_id
           WHERE cu.user_id = $1 ORDER BY c.created_at, c.id`,
          [userId, sessionId],
        )
      : await this.db.query(`${MEMBERSHIP_SQL} ORDER BY c.created_at, c.id`, [userId]);
    return rows.map(toMembership);
  }

  async findForUser(userId: string, companyId: string): Promise<CompanyMembershipDto | null> {
    const rows: MembershipRow[] = await this.db.query(`${MEMBERSHIP_SQL} AND cu.company_id = $2`, [
      userId,
      companyId,
    ]);
    return rows[0] ? toMembership(rows[0]) : null;
  }

  async roleOf(userId: string, companyId: string): Promise<CompanyRole | null> {
    const rows: Array<{ role: CompanyRole }> = await this.db.query(
      'SELECT role FROM company_users WHERE user_id = $1 AND company_id = $2',
      [userId, companyId],
    );
    return rows[0]?.role ?? null;
  }
}
