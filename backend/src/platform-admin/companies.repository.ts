import { Injectable } from '@nestjs/common';
import type { CompanyRole } from '../contracts/companies';
import type {
  PlatformCompanyDetails,
  PlatformCompanyMemberView,
  PlatformCompanyView,
} from '../contracts/platform-admin';
import { fileUrl } from '../files/files.service';
import { fullName, likePattern } from './users.repository';
import { Database, type Tx } from '../database/database';

interface CompanyRow {
  id: string;
  name: string;
  created_at: Date;
  /** created_at as PostgreSQL prints it: exact to the microsecond, for the cursor. */
  created_key: string;
  user_count: string;
  uses_sso: boolean;
}

const toView = (row: CompanyRow): PlatformCompanyView => ({
  id: row.id,
  name: row.name,
  userCount: Number(row.user_count),
  usesSso: row.uses_sso,
  createdAt: row.created_at.toISOString(),
});

/** What a deletion removes, counted before it goes (for the audit entry) and the members to tell. */
export interface CompanyRemoval {
  name: string;
  memberIds: string[];
  counts: { members: number; agents: number; chats: number; messages: number; invitations: number };
}

/**
 * Every company of the installation, as Company Management reads and deletes them. Pages are newest
 * first; the cursor is the last row's (created_at, id).
 */
@Injectable()
export class PlatformCompaniesRepository {
  constructor(private readonly db: Database) {}

  async page(query: {
    search?: string;
    after?: { createdKey: string; id: string };
    limit: number;
  }): Promise<Array<PlatformCompanyView & { cursorKey: string }>> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.search) {
      params.push(likePattern(query.search));
      where.push(`lower(c.name) LIKE $${params.length}`);
    }
    if (query.after) {
      params.push(query.after.createdKey, query.after.id);
      where.push(`(c.created_at, c.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(query.limit);
    const rows: CompanyRow[] = await this.db.query(
      `SELECT c.id, c.name, c.created_at, c.created_at::text AS created_key,
         (SELECT count(*) FROM company_users cu WHERE cu.company_id = c.id) AS user_count,
         EXISTS (SELECT 1 FROM company_sso cs WHERE cs.company_id = c.id AND cs.enabled) AS uses_sso
       FROM companies c
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY c.created_at DESC, c.id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({ ...toView(row), cursorKey: row.created_key }));
  }

  /**
   * The owner shown is the recorded owner while they still are one, else the longest-standing owner
   * (as Company Details shows it to the company's own admins).
   */
  async details(companyId: string, manager?: Tx): Promise<Omit<PlatformCompanyDetails, 'quotas'> | null> {
    const rows: Array<
      CompanyRow & {
        agent_count: string;
        chat_count: string;
        owner_id: string | null;
        owner_email: string | null;
        owner_first: string | null;
        owner_last: string | null;
      }
    > = await this.db.query(
      `SELECT c.id, c.name, c.created_at, c.created_at::text AS created_key,
         (SELECT count(*) FROM company_users cu WHERE cu.company_id = c.id) AS user_count,
         EXISTS (SELECT 1 FROM company_sso cs WHERE cs.company_id = c.id AND cs.enabled) AS uses_sso,
         (SELECT count(*) FROM agents a WHERE a.company_id = c.id) AS agent_count,
         (SELECT count(*) FROM chats ch WHERE ch.company_id = c.id) AS chat_count,
         o.id AS owner_id, o.email AS owner_email, o.first_name AS owner_first, o.last_name AS owner_last
       FROM companies c
       LEFT JOIN LATERAL (
         SELECT p.id, p.email, p.first_name, p.last_name FROM company_users cu
         JOIN profiles p ON p.id = cu.user_id
         WHERE cu.company_id = c.id AND cu.role = 'owner'
         ORDER BY (cu.user_id = c.owner_id) DESC, cu.created_at ASC LIMIT 1
       ) o ON true
       WHERE c.id = $1`,
      [companyId],
      manager,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...toView(row),
      owner: row.owner_id
        ? {
            id: row.owner_id,
            email: row.owner_email ?? '',
            name:
              fullName({ first_name: row.owner_first ?? '', last_name: row.owner_last ?? '' }) ||
              'Unnamed User',
          }
        : null,
      memberCount: Number(row.user_count),
      agentCount: Number(row.agent_count),
      chatCount: Number(row.chat_count),
    };
  }

  /** The company's name, its row locked against deletion until `tx` ends; null when there is none. */
  async lockName(tx: Tx, companyId: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.db.query(
      'SELECT name FROM companies WHERE id = $1 FOR SHARE',
      [companyId],
      tx,
    );
    return rows[0]?.name ?? null;
  }

  async exists(companyId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM companies WHERE id = $1', [companyId]);
    return rows.length > 0;
  }

  /** Owners first, then admins, then users; oldest membership first within a role. */
  async members(companyId: string): Promise<PlatformCompanyMemberView[]> {
    const rows: Array<{
      user_id: string;
      email: string;
      first_name: string;
      last_name: string;
      avatar_file_id: string | null;
      role: CompanyRole;
      created_at: Date;
    }> = await this.db.query(
      `SELECT cu.user_id, p.email, p.first_name, p.last_name, p.avatar_file_id, cu.role, cu.created_at
       FROM company_users cu JOIN profiles p ON p.id = cu.user_id
       WHERE cu.company_id = $1
       ORDER BY CASE cu.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, cu.created_at, cu.id`,
      [companyId],
    );
    return rows.map((row) => ({
      userId: row.user_id,
      name: fullName(row) || 'Unnamed User',
      email: row.email,
      avatar: fileUrl(row.avatar_file_id),
      role: row.role,
      joinedAt: row.created_at.toISOString(),
    }));
  }

  /**
   * Deletes the company and everything it owns, inside the caller's transaction: its memberships,
   * agents (and their avatar files), chats, messages and invitations. The company row is locked first,
   * so a member joining or an agent being made at the same moment waits and then finds no company.
   * Memberships, agents, chats, messages and invitations go by the foreign keys' ON DELETE CASCADE
   * (company_users, agents, chats, company_invitations → companies; messages → chats); the agents'
   * avatar files are owned by people, not the company, so they are removed here by id.
   */
  async remove(tx: Tx, companyId: string): Promise<CompanyRemoval | null> {
    const locked: Array<{ name: string }> = await this.db.query(
      'SELECT name FROM companies WHERE id = $1 FOR UPDATE',
      [companyId],
      tx,
    );
    if (!locked[0]) return null;
    const members: Array<{ user_id: string }> = await this.db.query(
      'SELECT user_id FROM company_users WHERE company_id = $1',
      [companyId],
      tx,
    );
    const [counts]: Array<Record<'agents' | 'chats' | 'messages' | 'invitations', string>> =
      await this.db.query(
        `SELECT (SELECT count(*) FROM agents WHERE company_id = $1) AS agents,
         (SELECT count(*) FROM chats WHERE company_id = $1) AS chats,
         (SELECT count(*) FROM messages m JOIN chats ch ON ch.id = m.chat_id WHERE ch.company_id = $1) AS messages,
         (SELECT count(*) FROM company_invitations WHERE company_id = $1) AS invitations`,
        [companyId],
        tx,
      );
    await this.db.query(
      `DELETE FROM files WHERE id IN (
         SELECT avatar_file_id FROM agents WHERE company_id = $1 AND avatar_file_id IS NOT NULL)`,
      [companyId],
      tx,
    );
    await this.db.query('DELETE FROM companies WHERE id = $1', [companyId], tx);
    return {
      name: locked[0].name,
      memberIds: members.map((m) => m.user_id),
      counts: {
        members: members.length,
        agents: Number(counts.agents),
        chats: Number(counts.chats),
        messages: Number(counts.messages),
        invitations: Number(counts.invitations),
      },
    };
  }
}
