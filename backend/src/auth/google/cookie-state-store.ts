import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { JwtService } from '@nestjs/jwt';

export const OAUTH_STATE_COOKIE = 'sb_oauth';
const COOKIE_PATH = '/api/auth/google';
type StoreCallback = (err: Error | null, handle?: string) => void;
type VerifyCallback = (err: Error | null, verifier?: string | false, info?: unknown) => void;

/**
 * passport-oauth2 keeps the OAuth state and PKCE verifier in a server session by default; we have no
 * server sessions, so they travel in a short-lived signed, httpOnly cookie bound to this browser.
 */
export class CookieStateStore {
  private readonly jwt: JwtService;

  constructor(
    secret: string,
    private readonly secure: boolean,
  ) {
    this.jwt = new JwtService({ secret });
  }

  store(req: Request, verifier: string, _state: unknown, _meta: unknown, callback: StoreCallback): void {
    const handle = randomBytes(24).toString('base64url');
    const value = this.jwt.sign(
      { h: handle, v: verifier },
      { algorithm: 'HS256', audience: 'oauth-state', expiresIn: 600 },
    );
    req.res?.cookie(OAUTH_STATE_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: COOKIE_PATH,
      maxAge: 600_000,
    });
    callback(null, handle);
  }

  verify(req: Request, providedState: string, callback: VerifyCallback): void {
    const raw = (req.cookies as Record<string, unknown> | undefined)?.[OAUTH_STATE_COOKIE];
    req.res?.clearCookie(OAUTH_STATE_COOKIE, { path: COOKIE_PATH });
    if (typeof raw !== 'string' || typeof providedState !== 'string') {
      callback(null, false, { message: 'Unable to verify authorization request state.' });
      return;
    }
    try {
      const { h, v } = this.jwt.verify<{ h: string; v: string }>(raw, {
        algorithms: ['HS256'],
        audience: 'oauth-state',
      });
      const a = Buffer.from(h);
      const b = Buffer.from(providedState);
      if (a.length !== b.length || !timingSafeEqual(a, b)) {
        callback(null, false, { message: 'Invalid authorization request state.' });
        return;
      }
      callback(null, v);
    } catch {
      callback(null, false, { message: 'Unable to verify authorization request state.' });
    }
  }
}
