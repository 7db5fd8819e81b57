import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  AgentCallbackTokensRepository,
  type IssuedToken,
  type OverdueCallback,
} from './agent-callback-tokens.repository';

/** What the webhook body gets, for an agent that answers 202 Accepted and delivers later. */
export interface CallbackGrant {
  callbackUrl: string;
  callbackToken: string;
}

/** Tokens are only ever stored as this hash. */
export function hashCallbackToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Tokens past their deadline by this much are deleted (until then they answer 410, after that 401). */
export const KEEP_EXPIRED_TOKENS_MS = 24 * 60 * 60 * 1000;

/**
 * Issues and checks the per-message tokens of long-running agents. Used by the reply job (issue before
 * the webhook call, accept on 202), the callback route (check) and the sweep (overdue replies).
 */
@Injectable()
export class AgentCallbackTokensService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: AgentCallbackTokensRepository,
  ) {}

  /**
   * A fresh token for one delivery attempt of a message (32 random bytes, base64url), valid until the
   * agent's deadline. A retried delivery gets another one; the earlier ones stay valid (see the entity).
   * Null when the message no longer waits for a reply.
   */
  async issue(messageId: string): Promise<CallbackGrant | null> {
    const callbackToken = randomBytes(32).toString('base64url');
    if (!(await this.tokens.insert(messageId, hashCallbackToken(callbackToken)))) return null;
    return {
      callbackUrl: `${this.config.appOrigin}/api/agent-callbacks/${messageId}`,
      callbackToken,
    };
  }

  /** The webhook answered 202 Accepted: the reply stays pending until a callback or the deadline. */
  accept(messageId: string): Promise<void> {
    return this.tokens.markAccepted(messageId);
  }

  /**
   * The token of this message that the presented one is, compared in constant time against every token
   * the message has (so timing tells nothing about how close a guess was); null when none matches.
   */
  async match(messageId: string, presented: string): Promise<IssuedToken | null> {
    const hash = hashCallbackToken(presented);
    let found: IssuedToken | null = null;
    for (const issued of await this.tokens.forMessage(messageId)) {
      if (issued.tokenHash.length === hash.length && timingSafeEqual(issued.tokenHash, hash)) found = issued;
    }
    return found;
  }

  markUsed(token: IssuedToken): Promise<void> {
    return this.tokens.markUsed(token.tokenHash);
  }

  replyStatus(messageId: string): Promise<string | null> {
    return this.tokens.replyStatus(messageId);
  }

  overdue(limit = 500): Promise<OverdueCallback[]> {
    return this.tokens.overdue(limit);
  }

  deleteExpired(): Promise<number> {
    return this.tokens.deleteExpired(KEEP_EXPIRED_TOKENS_MS);
  }
}
