import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';
import type { AuthTokenEntity, AuthTokenPurpose } from './auth-token.entity';

/** The SQL of auth_tokens (emailed single-use tokens; only their hashes are stored). */
@Injectable()
export class AccountTokensRepository {
  constructor(private readonly db: Database) {}

  async insert(
    values: Pick<AuthTokenEntity, 'userId' | 'purpose' | 'email' | 'tokenHash' | 'expiresAt'>,
    tx?: Tx,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO auth_tokens (user_id, purpose, email, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [values.userId, values.purpose, values.email, values.tokenHash, values.expiresAt],
      tx,
    );
  }

  /** An unused, unexpired token of this purpose, locked for the rest of `tx`. */
  async lockUsable(
    tx: Tx,
    tokenHash: string,
    purpose: AuthTokenPurpose,
  ): Promise<Pick<AuthTokenEntity, 'userId' | 'email'> | null> {
    const rows: Array<Pick<AuthTokenEntity, 'userId' | 'email'>> = await this.db.query(
      `SELECT user_id AS "userId", email FROM auth_tokens
       WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
       FOR UPDATE`,
      [tokenHash, purpose],
      tx,
    );
    return rows[0] ?? null;
  }

  /** Uses every outstanding token of this purpose for the user. */
  async useAll(tx: Tx, userId: string, purpose: AuthTokenPurpose): Promise<void> {
    await this.db.query(
      'UPDATE auth_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL',
      [userId, purpose],
      tx,
    );
  }
}
