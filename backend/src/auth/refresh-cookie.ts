import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import type { SignedIn } from './auth.service';
import { SESSION_TTL_MS } from './sessions.service';

export const REFRESH_COOKIE = 'sb_refresh';
/**
 * A hint the page can read (no secret in it): this browser may have a session to restore. Without it
 * the app shows the sign-in page at once instead of probing /api/auth/refresh for a certain 401.
 */
export const SESSION_HINT_COOKIE = 'sb_signed_in';

function options(config: AppConfig): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.appOrigin.startsWith('https://'),
    path: '/api/auth',
  };
}

function hintOptions(config: AppConfig): CookieOptions {
  return { ...options(config), httpOnly: false, path: '/' };
}

/**
 * An answer that carries a token (an access token in the body, a refresh token in a cookie) is for this
 * browser only, now: no cache, the browser's or a proxy's, may keep it.
 */
export function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

export function setRefreshCookie(res: Response, config: AppConfig, token: string): void {
  noStore(res);
  res.cookie(REFRESH_COOKIE, token, { ...options(config), maxAge: SESSION_TTL_MS });
  res.cookie(SESSION_HINT_COOKIE, '1', { ...hintOptions(config), maxAge: SESSION_TTL_MS });
}

/** What a sign-in answers in its body (the refresh token travels only in the cookie). */
export type SignedInBody = Pick<SignedIn, 'accessToken' | 'expiresIn' | 'user'>;

/**
 * A sign-in's answer (password, registration, invitation, password change): the session's refresh
 * cookie set on the response, and the body with the access token and the user.
 */
export function answerSignedIn(res: Response, config: AppConfig, signedIn: SignedIn): SignedInBody {
  noStore(res);
  if (signedIn.refreshToken) setRefreshCookie(res, config, signedIn.refreshToken);
  return { accessToken: signedIn.accessToken, expiresIn: signedIn.expiresIn, user: signedIn.user };
}

export function clearRefreshCookie(res: Response, config: AppConfig): void {
  res.clearCookie(REFRESH_COOKIE, options(config));
  res.clearCookie(SESSION_HINT_COOKIE, hintOptions(config));
}

export function readRefreshCookie(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof value === 'string' && value.length < 300 ? value : undefined;
}

/**
 * A refresh from the request's cookie, as POST /api/auth/refresh and POST /api/auth/session make it: the
 * rotated session's cookie set on the answer, or the cookie cleared when the session is refused.
 */
export async function refreshFromCookie(
  req: Request,
  res: Response,
  config: AppConfig,
  refresh: (token: string | undefined) => Promise<SignedIn>,
): Promise<SignedIn> {
  noStore(res);
  let signedIn: SignedIn;
  try {
    signedIn = await refresh(readRefreshCookie(req));
  } catch (error) {
    clearRefreshCookie(res, config);
    throw error;
  }
  if (signedIn.refreshToken) setRefreshCookie(res, config, signedIn.refreshToken);
  return signedIn;
}
