import { createHash } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { AuthenticatedRequest } from '../current-user.decorator';
import { DomainError } from '../domain-errors';
import { RATE_LIMIT } from './rate-limit.decorator';
import { RATE_LIMIT_SCALE, RATE_LIMIT_STORAGE, type RateLimitStorage } from './rate-limit.storage';
import {
  RATE_LIMITS,
  type RateLimitBucket,
  type RateLimitName,
  TOO_MANY_ATTEMPTS,
  TOO_MANY_REQUESTS,
} from './rate-limits';

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super('TOO_MANY_REQUESTS', message);
  }
}

export class RateLimitUnavailableError extends DomainError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The service is busy. Please try again in a moment.');
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

/**
 * Global guard (registered after the access-token guard, so `request.user` is known): applies the
 * route's RATE_LIMITS entry, if it has one. Routes without `@RateLimit` cost nothing.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimit');

  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
    @Inject(RATE_LIMIT_SCALE) private readonly scale: number,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const name = this.reflector.get<RateLimitName | undefined>(RATE_LIMIT, context.getHandler());
    if (!name) return true;
    const http = context.switchToHttp();
    await this.check(
      name,
      http.getRequest<Request & Partial<AuthenticatedRequest>>(),
      http.getResponse<Response>(),
    );
    return true;
  }

  /**
   * Counts the request against the limit `name` (the guard's work for a route marked `@RateLimit(name)`,
   * also called by the lean send-message route): a RateLimitedError with Retry-After set when over it.
   */
  async check(
    name: RateLimitName,
    req: Request & Partial<AuthenticatedRequest>,
    res: Response,
  ): Promise<void> {
    for (const bucket of RATE_LIMITS[name] as RateLimitBucket[]) {
      const subject = this.subjectOf(bucket, req);
      if (subject === null) continue;
      const limit = bucket.limit * this.scale;
      let outcome: { isBlocked: boolean; timeToBlockExpire: number };
      try {
        outcome = await this.storage.increment(
          `${name}:${bucket.by}:${subject}`,
          bucket.windowMs,
          limit,
          bucket.windowMs,
          'rl',
        );
      } catch (error) {
        // Counting needs Redis. Sign-in and friends fail closed (no unlimited guessing during an
        // outage); a signed-in user's actions go on uncounted.
        this.logger.warn(`rate limit storage unavailable: ${(error as Error).message}`);
        if (bucket.by === 'user') continue;
        throw new RateLimitUnavailableError();
      }
      if (outcome.isBlocked) {
        const retryAfter = Math.max(1, outcome.timeToBlockExpire);
        res.setHeader('Retry-After', String(retryAfter));
        throw new RateLimitedError(bucket.by === 'user' ? TOO_MANY_REQUESTS : TOO_MANY_ATTEMPTS, retryAfter);
      }
    }
  }

  private subjectOf(bucket: RateLimitBucket, req: Request & Partial<AuthenticatedRequest>): string | null {
    if (bucket.by === 'ip') return req.ip ?? 'unknown';
    if (bucket.by === 'user') return req.user?.id ?? null;
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || !email.trim()) return null;
    // Emails are not kept in Redis in clear.
    return digest(email.trim().toLowerCase().slice(0, 320));
  }
}
