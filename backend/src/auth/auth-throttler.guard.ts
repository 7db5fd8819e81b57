import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { DomainError } from '../common/domain-errors';

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.';

/**
 * Limits sign-in, registration and reset per client address and per email, so guessing one account's
 * password from many addresses is slowed as well as guessing many accounts from one.
 */
@Injectable()
export class AuthThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const body = req.body as { email?: unknown } | undefined;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase().slice(0, 320) : '';
    return Promise.resolve(`${String(req.ip)}|${email}`);
  }

  protected override throwThrottlingException(): Promise<void> {
    throw new DomainError('TOO_MANY_REQUESTS', TOO_MANY_ATTEMPTS);
  }
}
