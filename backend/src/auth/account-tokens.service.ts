import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, IsNull, MoreThan, type Repository } from 'typeorm';
import { AuthTokenEntity, type AuthTokenPurpose } from './auth-token.entity';
import { sha256 } from './sessions.service';

const TTL_MS: Record<AuthTokenPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  email_verification: 48 * 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

/** Emailed single-use tokens (reset, verification, email change): 256 random bits, only the hash kept. */
@Injectable()
export class AccountTokensService {
  constructor(@InjectRepository(AuthTokenEntity) private readonly tokens: Repository<AuthTokenEntity>) {}

  /**
   * A new token for the user; `email` binds it to the address it was sent to. `ttlMs` overrides the
   * purpose's lifetime (a platform invitation's set-your-password link lasts days, not an hour); `manager`
   * joins the caller's transaction (the account it names may not be committed yet).
   */
  async issue(
    userId: string,
    purpose: AuthTokenPurpose,
    email: string,
    options: { ttlMs?: number; manager?: EntityManager } = {},
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const repo = options.manager ? options.manager.getRepository(AuthTokenEntity) : this.tokens;
    await repo.insert({
      userId,
      purpose,
      email,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + (options.ttlMs ?? TTL_MS[purpose])),
    });
    return token;
  }

  /**
   * Uses a token once, atomically (row lock), inside the caller's transaction. Every other outstanding
   * token of the same purpose for that user dies with it. Null when unknown, used or expired.
   */
  async consume(
    manager: EntityManager,
    token: string,
    purpose: AuthTokenPurpose,
  ): Promise<AuthTokenEntity | null> {
    const repo = manager.getRepository(AuthTokenEntity);
    const row = await repo.findOne({
      where: { tokenHash: sha256(token), purpose, usedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row) return null;
    await repo.update({ userId: row.userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
    return row;
  }
}
