import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { purposeKey } from '../common/purpose-key';

/** How long the dashboard cookie lives without use; each request renews it past half-time. */
export const DASHBOARD_TOKEN_TTL_S = 15 * 60;
const AUDIENCE = 'switchboard-queue-dashboard';
const ISSUER = 'switchboard';

export interface DashboardClaims {
  /** The superadmin's user id. */
  sub: string;
  /** The session it was issued to: signing that session out ends the dashboard too. */
  sid: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/**
 * The dashboard cookie's token: HS256 with a key of its own (derived from JWT_SECRET), so it is never
 * mistaken for an access token, nor an access token for it. It only names a user and a session;
 * whether they may still use the dashboard is read from the database on every request.
 */
export class DashboardTokens {
  private readonly key: KeyObject;

  constructor(jwtSecret: string) {
    this.key = purposeKey(jwtSecret, 'queue-dashboard-cookie-v2');
  }

  sign(userId: string, sessionId: string): { token: string; expiresAt: Date } {
    const token = jwt.sign({ sid: sessionId }, this.key, {
      subject: userId,
      algorithm: 'HS256',
      audience: AUDIENCE,
      issuer: ISSUER,
      expiresIn: DASHBOARD_TOKEN_TTL_S,
    });
    return { token, expiresAt: new Date(Date.now() + DASHBOARD_TOKEN_TTL_S * 1000) };
  }

  verify(token: string): DashboardClaims | null {
    try {
      const claims = jwt.verify(token, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        issuer: ISSUER,
      });
      if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number')
        return null;
      const sid = (claims as { sid?: unknown }).sid;
      return typeof sid === 'string' ? { sub: claims.sub, sid, exp: claims.exp } : null;
    } catch {
      return null;
    }
  }
}
