import { Injectable } from '@nestjs/common';
import type { CompanyRole } from '../contracts/companies';
import type { MemberView } from '../contracts/company-admin';
import { fileUrl } from '../files/files.service';
import { type Keyset, keysetAt } from '../common/keyset-cursor';
import { likePattern } from '../platform-admin/users.repository';
import { personName } from './require-manager';
import { Database, type Tx } from '../database/database';

interface MemberRow {
  id: string;
  user_id: string;
  role: CompanyRole;
  created_at: Date;
  keyset_at: string;
  email: string;
  first_name: string;
  last_name: string;
  avatar_file_id: string | null;
}

function toMemberView(row: Omit<MemberRow, 'keyset_at'>): MemberView {
  return {
    userId: row.user_id,
    name: personName({ firstName: row.first_name, lastName: row.last_name }),
    email: row.email,
    avatar: fileUrl(row.avatar_file_id),
    role: row.role,
    joinedAt: row.created_at.toISOString(),
  };
}

const MEMBER_COLUMNS =
  'cu.id, cu.user_id, cu.role, cu.created_at, p.email, p.first_name, p.last_name, p.avatar_file_id';

/** A company's memberships as its managers see them; every statement is scoped by the company. */
@Injectable()
export class MembersRepository {
  constructor(private readonly db: Database) {}

  /**
   * One page of the company's members, oldest first (the founder at the top): keyset on (created_at, id)
   * after `after`, an index range scan of IDX_company_users_company_joined; `search` keeps the members
   * whose email or name contains it. Each row also brings its keyset position.
   */
  async page(
    companyId: string,
    query: { search?: string; after?: Keyset; limit: number },
  ): Promise<Array<{ member: MemberView; keyset: Keyset }>> {
    const params: unknown[] = [companyId, query.limit];
    const where = ['cu.company_id = $1'];
    if (query.search) {
      params.push(likePattern(query.search));
      where.push(
        `(p.email LIKE $${params.length} OR lower(p.first_name || ' ' || p.last_name) LIKE $${params.length})`,
      );
    }
    if (query.after) {
      params.push(query.after.at, query.after.id);
      where.push(`(cu.created_at, cu.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    const rows: MemberRow[] = await this.db.query(
      `SELECT ${MEMBER_COLUMNS}, ${keysetAt('cu.created_at')} AS keyset_at
       FROM company_users cu JOIN profiles p ON p.id = cu.user_id
       WHERE ${where.join(' AND ')}
       ORDER BY cu.created_at, cu.id LIMIT $2`,
      params,
    );
    return rows.map((row) => ({ member: toMemberView(row), keyset: { at: row.keyset_at, id: row.id } }));
  }

  async find(companyId: string, userId: string): Promise<MemberView | null> {
    const rows: MemberRow[] = await this.db.query(
      `SELECT ${MEMBER_COLUMNS} FROM company_users cu JOIN profiles p ON p.id = cu.user_id
       WHERE cu.company_id = $1 AND cu.user_id = $2`,
      [companyId, userId],
    );
    return rows[0] ? toMemberView(rows[0]) : null;
  }

  /**
   * Locks every membership of the company for the rest of the transaction and returns the roles: two
   * managers changing owners at once are serialised, so "at least one owner" holds.
   */
  async lockRoles(tx: Tx, companyId: string): Promise<Map<string, CompanyRole>> {
    const rows: Array<{ user_id: string; role: CompanyRole }> = await this.db.query(
      'SELECT user_id, role FROM company_users WHERE company_id = $1 ORDER BY id FOR UPDATE',
      [companyId],
      tx,
    );
    return new Map(rows.map((r) => [r.user_id, r.role]));
  }

  async setRole(tx: Tx, companyId: string, userId: string, role: CompanyRole): Promise<void> {
    await this.db.query(
      'UPDATE company_users SET role = $3 WHERE company_id = $1 AND user_id = $2',
      [companyId, userId, role],
      tx,
    );
  }

  /** Ends the membership and remembers the removal (single sign-on does not add them back). */
  async remove(tx: Tx, companyId: string, userId: string): Promise<void> {
    await this.db.query(
      `WITH gone AS (DELETE FROM company_users WHERE company_id = $1 AND user_id = $2 RETURNING company_id, user_id)
       INSERT INTO company_removals (company_id, user_id) SELECT company_id, user_id FROM gone
       ON CONFLICT (company_id, user_id) DO UPDATE SET removed_at = now()`,
      [companyId, userId],
      tx,
    );
  }

  /**
   * Single sign-on's automatic join: adds the person as User unless already a member or once removed by
   * the company's managers. Whether they joined.
   */
  async autoJoin(tx: Tx, companyId: string, userId: string): Promise<boolean> {
    const inserted = await this.db.query(
      `INSERT INTO company_users (company_id, user_id, role, invited_by)
       SELECT $1, $2, 'user', NULL
       WHERE NOT EXISTS (SELECT 1 FROM company_removals WHERE company_id = $1 AND user_id = $2)
       ON CONFLICT DO NOTHING RETURNING id`,
      [companyId, userId],
      tx,
    );
    return inserted.length > 0;
  }

  /** Adds the membership unless the user already has one; returns the role they now hold and whether it is new. */
  async insertIfAbsent(
    tx: Tx,
    values: { companyId: string; userId: string; role: CompanyRole; invitedBy: string | null },
  ): Promise<{ role: CompanyRole; joined: boolean }> {
    // An invitation accepted lets a removed person back in, single sign-on included.
    await this.db.query(
      'DELETE FROM company_removals WHERE company_id = $1 AND user_id = $2',
      [values.companyId, values.userId],
      tx,
    );
    const inserted = await this.db.query(
      `INSERT INTO company_users (company_id, user_id, role, invited_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING id`,
      [values.companyId, values.userId, values.role, values.invitedBy],
      tx,
    );
    if (inserted.length) return { role: values.role, joined: true };
    const [existing] = await this.db.query<{ role: CompanyRole }>(
      'SELECT role FROM company_users WHERE company_id = $1 AND user_id = $2',
      [values.companyId, values.userId],
      tx,
    );
    return { role: existing.role, joined: false };
  }

  async count(companyId: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM company_users WHERE company_id = $1',
      [companyId],
    );
    return row.count;
  }
}
