import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { SESSION_TTL_MS } from './sessions.service';

export const REFRESH_COOKIE = 'sb_refresh';

function options(config: AppConfig): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.appOrigin.startsWith('https://'),
    path: '/api/auth',
  };
}

export function setRefreshCookie(res: Response, config: AppConfig, token: string): void {
  res.cookie(REFRESH_COOKIE, token, { ...options(config), maxAge: SESSION_TTL_MS });
}

export function clearRefreshCookie(res: Response, config: AppConfig): void {
  res.clearCookie(REFRESH_COOKIE, options(config));
}

export function readRefreshCookie(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof value === 'string' && value.length < 300 ? value : undefined;
}
