import { Injectable } from '@nestjs/common';
import type { CompanyRole } from '../companies/company-user.entity';
import { Database, type Tx } from '../database/database';

/** What rotating a refresh token reads of its session, under the row lock. */
export interface SessionSecrets {
  id: string;
  userId: string;
  refreshHash: string;
  previousHash: string | null;
  retiredHashes: string[];
  rotatedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const SECRETS_COLUMNS = `id, user_id AS "userId", refresh_hash AS "refreshHash", previous_hash AS "previousHash",
  retired_hashes AS "retiredHashes", rotated_at AS "rotatedAt", expires_at AS "expiresAt", revoked_at AS "revokedAt"`;

/** A live session of an account that is not disabled. */
const LIVE_SESSION = `s.revoked_at IS NULL AND s.expires_at > now() AND p.disabled_at IS NULL`;

/**
 * "Members must use SSO": the company (with single sign-on on) refuses its data to a session of `s` not
 * made through its own provider. Owners are exempt, so that a broken provider cannot lock the people who
 * can fix its settings out of them.
 */
export const SSO_REFUSED = (companyId: string, role: string) => `EXISTS (SELECT 1 FROM company_sso cs
  WHERE cs.company_id = ${companyId} AND cs.enabled AND cs.require_sso AND ${role} IS DISTINCT FROM 'owner'
  AND s.sso_company_id IS DISTINCT FROM cs.company_id)`;

/** The session's user when the session is live and the account not disabled, with one company role. */
const ACTIVE_USER_SQL = `SELECT p.id, p.is_superadmin, cu.role, ${SSO_REFUSED('cu.company_id', 'cu.role')} AS sso_refused
  FROM sessions s
  JOIN profiles p ON p.id = s.user_id
  LEFT JOIN company_users cu ON cu.user_id = p.id AND cu.company_id = $3
  WHERE s.id = $1 AND s.user_id = $2 AND ${LIVE_SESSION}`;

/** A member's company as one session may reach it. */
export interface CompanyAccess {
  companyId: string;
  role: CompanyRole;
  /** The company requires single sign-on and this session was not made through it. */
  ssoRefused: boolean;
}

/** The SQL of sessions (one signed-in device each). */
@Injectable()
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  /** A new session's id, in the caller's transaction when given. */
  async insert(
    values: {
      userId: string;
      refreshHash: string;
      rotatedAt: Date;
      expiresAt: Date;
      userAgent: string | null;
      ssoCompanyId?: string | null;
    },
    tx?: Tx,
  ): Promise<string> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO sessions (user_id, refresh_hash, rotated_at, expires_at, user_agent, sso_company_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        values.userId,
        values.refreshHash,
        values.rotatedAt,
        values.expiresAt,
        values.userAgent,
        values.ssoCompanyId ?? null,
      ],
      tx,
    );
    return rows[0].id;
  }

  /** The session, locked for the rest of `tx`. */
  async lockSecrets(tx: Tx, sessionId: string): Promise<SessionSecrets | null> {
    const rows: SessionSecrets[] = await this.db.query(
      `SELECT ${SECRETS_COLUMNS} FROM sessions WHERE id = $1 FOR UPDATE`,
      [sessionId],
      tx,
    );
    return rows[0] ?? null;
  }

  /** The secrets of a session not revoked (signing out with a refresh token checks them). */
  async findLiveSecrets(sessionId: string): Promise<SessionSecrets | null> {
    const rows: SessionSecrets[] = await this.db.query(
      `SELECT ${SECRETS_COLUMNS} FROM sessions WHERE id = $1 AND revoked_at IS NULL`,
      [sessionId],
    );
    return rows[0] ?? null;
  }

  /** A new current secret; the one it replaces becomes the previous one and joins the retired ones. */
  async rotate(
    tx: Tx,
    sessionId: string,
    next: {
      refreshHash: string;
      previousHash: string;
      retiredHashes: string[];
      rotatedAt: Date;
      expiresAt: Date;
    },
  ): Promise<void> {
    await this.db.query(
      `UPDATE sessions SET refresh_hash = $2, previous_hash = $3, retired_hashes = $4, rotated_at = $5,
         expires_at = $6 WHERE id = $1`,
      [sessionId, next.refreshHash, next.previousHash, next.retiredHashes, next.rotatedAt, next.expiresAt],
      tx,
    );
  }

  /** A new current secret for a live session, with no previous one; false when the session is revoked. */
  async reissue(sessionId: string, refreshHash: string): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE sessions SET previous_hash = NULL, refresh_hash = $2, rotated_at = now()
       WHERE id = $1 AND revoked_at IS NULL`,
      [sessionId, refreshHash],
    );
    return changed > 0;
  }

  /**
   * The session's user when the session is live, with the user's role in one company (null: none): a
   * prepared statement, because the guard runs it on every request.
   */
  async activeUser(
    sessionId: string,
    userId: string,
    companyId: string | null,
  ): Promise<{
    id: string;
    isSuperadmin: boolean;
    companyRole: CompanyRole | null;
    ssoRefused: boolean;
  } | null> {
    const rows = await this.db.prepared<{
      id: string;
      is_superadmin: boolean;
      role: CompanyRole | null;
      sso_refused: boolean | null;
    }>('auth.active-user', ACTIVE_USER_SQL, [sessionId, userId, companyId]);
    const row = rows[0];
    return row
      ? { id: row.id, isSuperadmin: row.is_superadmin, companyRole: row.role, ssoRefused: !!row.sso_refused }
      : null;
  }

  /** Revokes the live sessions made through a company's single sign-on; answers their ids. */
  async revokeMadeThroughSso(tx: Tx, companyId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `UPDATE sessions SET revoked_at = now() WHERE sso_company_id = $1 AND revoked_at IS NULL RETURNING id`,
      [companyId],
      tx,
    );
    return rows.map((r) => r.id);
  }

  /**
   * A live session's user's memberships (company and role), in one query: what a socket's rooms are
   * made of. Null when the session is not live (revoked, expired, the account disabled).
   */
  async liveMemberships(sessionId: string, userId: string): Promise<CompanyAccess[] | null> {
    const rows = await this.db.prepared<{
      company_id: string | null;
      role: CompanyRole | null;
      sso_refused: boolean | null;
    }>(
      'sessions.live-memberships',
      `SELECT cu.company_id, cu.role, ${SSO_REFUSED('cu.company_id', 'cu.role')} AS sso_refused
       FROM sessions s JOIN profiles p ON p.id = s.user_id
       LEFT JOIN company_users cu ON cu.user_id = s.user_id
       WHERE s.id = $1 AND s.user_id = $2 AND ${LIVE_SESSION}`,
      [sessionId, userId],
    );
    if (rows.length === 0) return null;
    return rows.flatMap((r) =>
      r.company_id && r.role ? [{ companyId: r.company_id, role: r.role, ssoRefused: !!r.sso_refused }] : [],
    );
  }

  /**
   * The live sessions of a company's members (or of one of them), each with the member's role and whether
   * the company refuses its data to the session: what the company's rooms are made of after single sign-on
   * or a role changed.
   */
  async companySessions(
    companyId: string,
    userId: string | null,
  ): Promise<Array<{ sessionId: string; role: CompanyRole; ssoRefused: boolean }>> {
    const rows: Array<{ id: string; role: CompanyRole; sso_refused: boolean }> = await this.db.query(
      `SELECT s.id, cu.role, ${SSO_REFUSED('cu.company_id', 'cu.role')} AS sso_refused
       FROM company_users cu JOIN sessions s ON s.user_id = cu.user_id JOIN profiles p ON p.id = s.user_id
       WHERE cu.company_id = $1 AND ($2::uuid IS NULL OR cu.user_id = $2::uuid) AND ${LIVE_SESSION}`,
      [companyId, userId],
    );
    return rows.map((r) => ({ sessionId: r.id, role: r.role, ssoRefused: r.sso_refused }));
  }

  /** Revokes one session unless already revoked; whether it was live. */
  async revoke(sessionId: string, tx?: Tx): Promise<boolean> {
    const changed = await this.db.execute(
      'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
      [sessionId],
      tx,
    );
    return changed > 0;
  }

  /** Revokes every live session of a user (but `exceptSessionId`) and returns their ids. */
  async revokeAllOfUser(
    userId: string,
    options: { exceptSessionId?: string; tx?: Tx } = {},
  ): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `UPDATE sessions SET revoked_at = now()
       WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING id`,
      [userId, options.exceptSessionId ?? null],
      options.tx,
    );
    return rows.map((row) => row.id);
  }
}
