import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '../common/uuid';
import type { CompanyRole } from '../companies/company-user.entity';
import { Database, type Tx } from '../database/database';
import {
  companyManagersRoom,
  companyRoom,
  RealtimePublisher,
  sessionRoom,
  ssoRefusedRoom,
} from '../realtime/realtime-publisher';
import { type CompanyAccess, type SessionSecrets, SessionsRepository } from './sessions.repository';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** Two tabs refreshing with the same cookie at once must not look like token theft. */
const ROTATION_GRACE_MS = 30_000;

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function sameHash(a: string | null, b: string): boolean {
  if (!a || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Earlier secrets remembered per session: replaying any of them revokes the session. */
const RETIRED_HASHES_KEPT = 64;

function withinGrace(session: Pick<SessionSecrets, 'rotatedAt'>): boolean {
  return Date.now() - session.rotatedAt.getTime() < ROTATION_GRACE_MS;
}

/** `<session id>.<secret>`, or null when the value cannot be a refresh token. */
function parseRefreshToken(refreshToken: string): { sessionId: string; secret: string } | null {
  const [sessionId, secret, extra] = refreshToken.split('.');
  if (!sessionId || !secret || extra !== undefined || !isUuid(sessionId) || secret.length > 100) return null;
  return { sessionId, secret };
}

export interface IssuedRefresh {
  sessionId: string;
  userId: string;
  /** The new cookie value, or null when the caller should keep the cookie it has (grace reuse). */
  refreshToken: string | null;
}

@Injectable()
export class SessionsService {
  private readonly logger = new Logger('Sessions');

  constructor(
    private readonly database: Database,
    private readonly sessions: SessionsRepository,
    private readonly realtime: RealtimePublisher,
  ) {}

  /** Joins the caller's transaction when given one (a sign-in commits with its audit entry). */
  async create(
    userId: string,
    userAgent: string | undefined,
    tx?: Tx,
    ssoCompanyId: string | null = null,
  ): Promise<{ sessionId: string; refreshToken: string }> {
    const secret = randomBytes(32).toString('base64url');
    const now = new Date();
    const sessionId = await this.sessions.insert(
      {
        userId,
        refreshHash: sha256(secret),
        rotatedAt: now,
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
        userAgent: userAgent?.slice(0, 500) ?? null,
        ssoCompanyId,
      },
      tx,
    );
    return { sessionId, refreshToken: `${sessionId}.${secret}` };
  }

  /**
   * Exchanges a refresh token for a new one. Presenting a secret this session used before (outside a
   * short grace window) means it was copied: the whole chain is revoked. A secret the session never had
   * is only refused, so knowing a session id (it is in every access token) is not enough to end it.
   */
  async rotate(refreshToken: string): Promise<IssuedRefresh | null> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return null;
    const presented = sha256(parsed.secret);
    type Outcome = IssuedRefresh | { revoked: string } | null;
    const outcome = await this.database.transaction(async (tx): Promise<Outcome> => {
      const session = await this.sessions.lockSecrets(tx, parsed.sessionId);
      if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
      if (sameHash(session.refreshHash, presented)) {
        const next = randomBytes(32).toString('base64url');
        const now = new Date();
        await this.sessions.rotate(tx, session.id, {
          previousHash: session.refreshHash,
          refreshHash: sha256(next),
          retiredHashes: [...session.retiredHashes, session.refreshHash].slice(-RETIRED_HASHES_KEPT),
          rotatedAt: now,
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
        });
        return { sessionId: session.id, userId: session.userId, refreshToken: `${session.id}.${next}` };
      }
      if (sameHash(session.previousHash, presented) && withinGrace(session)) {
        return { sessionId: session.id, userId: session.userId, refreshToken: null };
      }
      if (!session.retiredHashes.some((hash) => sameHash(hash, presented))) return null;
      this.logger.warn(`Refresh token reuse on session ${session.id}: revoking it`);
      await this.sessions.revoke(session.id, tx);
      return { revoked: session.id };
    });
    if (outcome && 'revoked' in outcome) {
      this.realtime.endSession(
        outcome.revoked,
        'Your session was ended for your security. Please sign in again.',
      );
      return null;
    }
    return outcome;
  }

  /** Issues a fresh token for a live session (after a password change, say). */
  async reissue(sessionId: string): Promise<string | null> {
    const next = randomBytes(32).toString('base64url');
    return (await this.sessions.reissue(sessionId, sha256(next))) ? `${sessionId}.${next}` : null;
  }

  /**
   * The session's user when the session is live, and (when asked) the user's role in one company: one
   * query, because the guard runs it on every request.
   */
  async activeUser(
    sessionId: string,
    userId: string,
    companyId?: string,
  ): Promise<{
    id: string;
    isSuperadmin: boolean;
    companyRole: CompanyRole | null;
    ssoRefused: boolean;
  } | null> {
    if (!isUuid(sessionId) || !isUuid(userId)) return null;
    const company = companyId && isUuid(companyId) ? companyId : null;
    return this.sessions.activeUser(sessionId, userId, company);
  }

  /** A live session's memberships (for a socket's rooms); null when the session is not live. */
  liveMemberships(sessionId: string, userId: string): Promise<CompanyAccess[] | null> {
    if (!isUuid(sessionId) || !isUuid(userId)) return Promise.resolve(null);
    return this.sessions.liveMemberships(sessionId, userId);
  }

  /** Signs out the session a refresh token belongs to, only when the token's secret is its own. */
  async revokeWithToken(refreshToken: string): Promise<void> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return;
    const session = await this.sessions.findLiveSecrets(parsed.sessionId);
    if (!session) return;
    const presented = sha256(parsed.secret);
    const own =
      sameHash(session.refreshHash, presented) ||
      (sameHash(session.previousHash, presented) && withinGrace(session));
    if (own) await this.revoke(session.id);
  }

  async revoke(sessionId: string): Promise<void> {
    if (!isUuid(sessionId)) return;
    await this.sessions.revoke(sessionId);
    this.realtime.endSession(sessionId, 'You signed out.');
  }

  /**
   * Revokes every live session of a user inside the caller's transaction (an account being disabled) and
   * returns their ids: after the commit, `endSessions` tells their sockets and disconnects them.
   */
  revokeAllInTransaction(tx: Tx, userId: string): Promise<string[]> {
    return this.sessions.revokeAllOfUser(userId, { tx });
  }

  /**
   * Puts the sockets of a company's members (or of one member) in the rooms their sessions may be in now:
   * after "members must use SSO" changed, single sign-on was turned on or off, or a member joined or
   * changed role. A session the company refuses leaves its rooms (and no longer gets the member's events
   * about it, see `ssoRefusedRoom`); one it accepts again joins them. `notify`: each session is told
   * whether the company now requires single sign-on from it (the screen follows at once).
   */
  async refreshCompanyAccess(companyId: string, options: { userId?: string; notify?: boolean } = {}) {
    const sessions = await this.sessions.companySessions(companyId, options.userId ?? null);
    const refused = sessions.filter((s) => s.ssoRefused).map((s) => sessionRoom(s.sessionId));
    const managers = sessions
      .filter((s) => !s.ssoRefused && (s.role === 'owner' || s.role === 'admin'))
      .map((s) => sessionRoom(s.sessionId));
    const users = sessions
      .filter((s) => !s.ssoRefused && s.role === 'user')
      .map((s) => sessionRoom(s.sessionId));
    const company = companyRoom(companyId);
    const managersRoom = companyManagersRoom(companyId);
    const refusedRoom = ssoRefusedRoom(companyId);
    // Leaving first: a socket is never in a room its session may not be in, even for a moment.
    this.realtime.moveSockets(refused, { leave: [company, managersRoom], join: [refusedRoom] });
    this.realtime.moveSockets(users, { leave: [managersRoom, refusedRoom], join: [company] });
    this.realtime.moveSockets(managers, { leave: [refusedRoom], join: [company, managersRoom] });
    if (!options.notify) return;
    if (refused.length) this.realtime.toRoom(refused, 'company.sso_required', { companyId, required: true });
    const accepted = [...managers, ...users];
    if (accepted.length)
      this.realtime.toRoom(accepted, 'company.sso_required', { companyId, required: false });
  }

  /**
   * Revokes, inside the caller's transaction, the sessions a company's single sign-on made (it was
   * turned off); after the commit, `endSessions` tells their sockets.
   */
  revokeMadeThroughSso(tx: Tx, companyId: string): Promise<string[]> {
    return this.sessions.revokeMadeThroughSso(tx, companyId);
  }

  endSessions(sessionIds: string[], reason: string): void {
    for (const id of sessionIds) this.realtime.endSession(id, reason);
  }

  /** Revokes every session of a user, optionally keeping one (the caller's own). */
  async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
    const revoked = await this.sessions.revokeAllOfUser(userId, { exceptSessionId });
    for (const id of revoked)
      this.realtime.endSession(id, 'Your password was changed. Please sign in again.');
  }
}
