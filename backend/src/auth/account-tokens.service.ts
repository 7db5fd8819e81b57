import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../database/database';
import { AccountTokensRepository } from './account-tokens.repository';
import type { AuthTokenEntity, AuthTokenPurpose } from './auth-token.entity';
import { sha256 } from './sessions.service';

const TTL_MS: Record<AuthTokenPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  email_verification: 48 * 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

/** Emailed single-use tokens (reset, verification, email change): 256 random bits, only the hash kept. */
@Injectable()
export class AccountTokensService {
  constructor(private readonly tokens: AccountTokensRepository) {}

  /**
   * A new token for the user; `email` binds it to the address it was sent to. `ttlMs` overrides the
   * purpose's lifetime (a platform invitation's set-your-password link lasts days, not an hour); `tx`
   * joins the caller's transaction (the account it names may not be committed yet).
   */
  async issue(
    userId: string,
    purpose: AuthTokenPurpose,
    email: string,
    options: { ttlMs?: number; tx?: Tx } = {},
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.tokens.insert(
      {
        userId,
        purpose,
        email,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + (options.ttlMs ?? TTL_MS[purpose])),
      },
      options.tx,
    );
    return token;
  }

  /**
   * Uses a token once, atomically (row lock), inside the caller's transaction. Every other outstanding
   * token of the same purpose for that user dies with it. Null when unknown, used or expired.
   */
  async consume(
    tx: Tx,
    token: string,
    purpose: AuthTokenPurpose,
  ): Promise<Pick<AuthTokenEntity, 'userId' | 'email'> | null> {
    const row = await this.tokens.lockUsable(tx, sha256(token), purpose);
    if (!row) return null;
    await this.tokens.useAll(tx, row.userId, purpose);
    return row;
  }
}
