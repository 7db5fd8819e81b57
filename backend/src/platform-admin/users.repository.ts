import { Injectable } from '@nestjs/common';
import type { PlatformUserView } from '../contracts/platform-admin';
import { fileUrl } from '../files/files.service';
import { Database, type Tx } from '../database/database';

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  avatar_file_id: string | null;
  is_superadmin: boolean;
  disabled_at: Date | null;
  last_login: Date | null;
  created_at: Date;
}

/** The row of a profile a change to it needs, read under a lock. */
export interface LockedUser {
  id: string;
  email: string;
  name: string;
  isSuperadmin: boolean;
  disabled: boolean;
}

const COLUMNS = `p.id, p.email, p.first_name, p.last_name, p.avatar_file_id, p.is_superadmin, p.disabled_at,
  p.last_login, p.created_at`;

export function fullName(row: { first_name: string; last_name: string }): string {
  return [row.first_name, row.last_name].filter(Boolean).join(' ').trim();
}

function toView(row: UserRow): PlatformUserView {
  return {
    id: row.id,
    name: fullName(row),
    email: row.email,
    avatar: fileUrl(row.avatar_file_id),
    isSuperadmin: row.is_superadmin,
    disabled: row.disabled_at !== null,
    lastLogin: row.last_login ? row.last_login.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}

/** `%term%` for LIKE, with the term's own wildcards taken literally. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Every account of the installation, as User Management reads and changes them. Pages are ordered by
 * email (unique, stored lower-case, indexed by UQ_profiles_email): the cursor is the last email of the
 * page, so the next page is an index range scan however many accounts there are.
 */
@Injectable()
export class PlatformUsersRepository {
  constructor(private readonly db: Database) {}

  async page(query: { search?: string; after?: string; limit: number }): Promise<PlatformUserView[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.search) {
      params.push(likePattern(query.search));
      where.push(
        `(p.email LIKE $${params.length} OR lower(p.first_name || ' ' || p.last_name) LIKE $${params.length})`,
      );
    }
    if (query.after) {
      params.push(query.after);
      where.push(`p.email > $${params.length}`);
    }
    params.push(query.limit);
    const rows: UserRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM profiles p
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY p.email LIMIT $${params.length}`,
      params,
    );
    return rows.map(toView);
  }

  async find(id: string, manager?: Tx): Promise<PlatformUserView | null> {
    const rows: UserRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM profiles p WHERE p.id = $1`,
      [id],
      manager,
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /**
   * Locks the target account and every active superadmin, in id order (so two changes never wait on
   * each other crosswise), for the rest of the transaction. Two admins demoting or disabling the last two
   * superadmins at once are serialised: the second one sees the first one's change.
   */
  async lockWithSuperadmins(
    tx: Tx,
    userId: string,
  ): Promise<{ target: LockedUser | null; activeSuperadmins: LockedUser[] }> {
    const rows: UserRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM profiles p
       WHERE p.id = $1 OR (p.is_superadmin AND p.disabled_at IS NULL)
       ORDER BY p.id FOR UPDATE`,
      [userId],
      tx,
    );
    const locked = rows.map((row): LockedUser => ({
      id: row.id,
      email: row.email,
      name: fullName(row),
      isSuperadmin: row.is_superadmin,
      disabled: row.disabled_at !== null,
    }));
    return {
      target: locked.find((u) => u.id === userId) ?? null,
      activeSuperadmins: locked.filter((u) => u.isSuperadmin && !u.disabled),
    };
  }

  /** Whether the account is an active superadmin, read with a share lock held to the end of the transaction. */
  async isActiveSuperadmin(tx: Tx, userId: string): Promise<boolean> {
    const rows: Array<{ ok: boolean }> = await this.db.query(
      'SELECT (is_superadmin AND disabled_at IS NULL) AS ok FROM profiles WHERE id = $1 FOR SHARE',
      [userId],
      tx,
    );
    return rows[0]?.ok === true;
  }

  async setSuperadmin(tx: Tx, userId: string, isSuperadmin: boolean): Promise<void> {
    await this.db.query(
      'UPDATE profiles SET is_superadmin = $2, updated_at = now() WHERE id = $1',
      [userId, isSuperadmin],
      tx,
    );
  }

  async setDisabled(tx: Tx, userId: string, disabled: boolean): Promise<void> {
    await this.db.query(
      `UPDATE profiles SET disabled_at = ${disabled ? 'now()' : 'NULL'}, updated_at = now() WHERE id = $1`,
      [userId],
      tx,
    );
  }

  async findByEmail(email: string): Promise<LockedUser | null> {
    const rows: UserRow[] = await this.db.query(`SELECT ${COLUMNS} FROM profiles p WHERE p.email = $1`, [
      email,
    ]);
    const row = rows[0];
    return row
      ? {
          id: row.id,
          email: row.email,
          name: fullName(row),
          isSuperadmin: row.is_superadmin,
          disabled: row.disabled_at !== null,
        }
      : null;
  }
}
