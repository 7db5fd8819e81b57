import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, NextFunction, Request, Response } from 'express';
import { CROSS_SITE_REFUSED } from '../auth/same-origin.guard';
import { SessionsService } from '../auth/sessions.service';
import type { AuthenticatedRequest } from '../common/current-user.decorator';
import { DomainError, ForbiddenError, UnauthorizedError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { QUEUE_DASHBOARD_PATH, type QueueDashboardSession } from '../contracts/operations';
import { SUPERADMIN_REQUIRED } from '../platform-admin/superadmin.guard';
import { DASHBOARD_TOKEN_TTL_S, DashboardTokens } from './queue-dashboard-token';

export const DASHBOARD_COOKIE = 'sb_queues';
export const SESSION_ROUTE = `${QUEUE_DASHBOARD_PATH}/session`;
export const OPEN_FROM_THE_APP =
  "Open the queue dashboard from Switchboard's platform administration (Queues); your access to it has expired.";
export const ACTION_NOT_OFFERED =
  'Only retrying, promoting and cleaning jobs are offered from the queue dashboard.';

/**
 * The dashboard's own JSON API (relative to its path) that may change something: retrying a job or
 * every failed one, promoting delayed jobs, cleaning jobs. Adding, editing, emptying, pausing or
 * obliterating would let a dashboard session forge jobs (mail, registrations) or stop every reply;
 * those stay with the operator's Redis tools.
 */
const OFFERED_ACTIONS = [
  /^\/api\/queues\/[^/]+\/[^/]+\/(retry|promote|clean)$/,
  /^\/api\/queues\/[^/]+\/retry\/failed$/,
  /^\/api\/queues\/[^/]+\/clean\/[^/]+$/,
  /^\/api\/queues\/[^/]+\/promote$/,
];

function pathOf(req: Request): string {
  return req.originalUrl.split('?')[0];
}

/**
 * Who may reach the queue dashboard. The page, its assets and its JSON API are plain navigations and
 * fetches that carry no access token, so a superadmin first exchanges the token for a cookie (the
 * POST); each dashboard request then checks the cookie's signature and age, and reads from the
 * database that its session is live and its user still a superadmin: signing out, a revoked session,
 * a disabled account or a demotion end it at the next request.
 */
@Injectable()
export class QueueDashboardAccess {
  private readonly tokens: DashboardTokens;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsService,
  ) {
    this.tokens = new DashboardTokens(config.jwtSecret);
  }

  /** POST /api/admin/queues/session, for a superadmin the guards have let through. */
  openSession(userId: string, sessionId: string, res: Response): QueueDashboardSession {
    const { token, expiresAt } = this.tokens.sign(userId, sessionId);
    res.cookie(DASHBOARD_COOKIE, token, this.cookieOptions());
    return { url: QUEUE_DASHBOARD_PATH, expiresAt: expiresAt.toISOString() };
  }

  /** Express middleware in front of bull-board (mounted only when the dashboard exists). */
  readonly middleware = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // The session route itself is an ordinary Nest route behind the Bearer guard.
    if (pathOf(req) === SESSION_ROUTE) return next();
    const user = await this.authorize(req, res);
    (req as AuthenticatedRequest).user = { id: user.sub, sessionId: user.sid, isSuperadmin: true };
    res.setHeader('Cache-Control', 'no-store');
    next();
  };

  private async authorize(req: Request, res: Response): Promise<{ sub: string; sid: string }> {
    const raw = (req.cookies as Record<string, unknown> | undefined)?.[DASHBOARD_COOKIE];
    const claims = typeof raw === 'string' && raw.length < 2000 ? this.tokens.verify(raw) : null;
    if (!claims) throw new UnauthorizedError(OPEN_FROM_THE_APP);
    const user = await this.sessions.activeUser(claims.sid, claims.sub);
    if (!user) {
      res.clearCookie(DASHBOARD_COOKIE, this.cookieOptions());
      throw new UnauthorizedError('Your session has ended. Please sign in again.');
    }
    if (!user.isSuperadmin) throw new ForbiddenError(SUPERADMIN_REQUIRED);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (!this.sameOrigin(req)) throw new DomainError('FORBIDDEN', CROSS_SITE_REFUSED);
      const action = pathOf(req).slice(QUEUE_DASHBOARD_PATH.length);
      if (req.method !== 'PUT' || !OFFERED_ACTIONS.some((pattern) => pattern.test(action)))
        throw new ForbiddenError(ACTION_NOT_OFFERED);
    }
    // In use: renewed past half its life, so an open dashboard keeps working while its session does.
    if (claims.exp * 1000 - Date.now() < (DASHBOARD_TOKEN_TTL_S * 1000) / 2)
      res.cookie(DASHBOARD_COOKIE, this.tokens.sign(claims.sub, claims.sid).token, this.cookieOptions());
    return claims;
  }

  /**
   * The cookie is SameSite=Strict already; a change must also say it comes from our own pages (as the
   * refresh-cookie routes require, see SameOriginGuard).
   */
  private sameOrigin(req: Request): boolean {
    const origin = req.get('origin');
    if (origin !== undefined) {
      const host = req.get('host');
      return origin === this.config.appOrigin || (!!host && origin === `${req.protocol}://${host}`);
    }
    const site = req.get('sec-fetch-site');
    return site === undefined || site === 'same-origin' || site === 'none';
  }

  private cookieOptions(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.config.appOrigin.startsWith('https://'),
      path: QUEUE_DASHBOARD_PATH,
      maxAge: DASHBOARD_TOKEN_TTL_S * 1000,
    };
  }
}
