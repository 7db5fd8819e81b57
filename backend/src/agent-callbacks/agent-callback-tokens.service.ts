import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  type CallbackCheck,
  AgentCallbackTokensRepository,
  type OverdueCallback,
} from './agent-callback-tokens.repository';
import { callbackTokenKey, mintCallbackToken, verifyCallbackTokenRound } from './callback-token';

/** What the webhook body gets, for an agent that answers 202 Accepted and delivers later. */
export interface CallbackGrant {
  callbackUrl: string;
  callbackToken: string;
}

/** Waits this far past their deadline are deleted (the sweep has failed them by then). */
export const KEEP_EXPIRED_WAITS_MS = 24 * 60 * 60 * 1000;

/**
 * The callback tokens of long-running agents and the waits of accepted replies. Used by the reply job
 * (a token with every webhook call, without a database write; a wait on 202), the callback route
 * (verify, then check) and the sweep (overdue replies).
 */
@Injectable()
export class AgentCallbackTokensService {
  private readonly key: KeyObject;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: AgentCallbackTokensRepository,
  ) {
    this.key = callbackTokenKey(config.jwtSecret);
  }

  /**
   * The token for one delivery attempt of a message, valid until `expiresAtMs` (Unix ms, the
   * agent's deadline from now by the database's clock). A retried delivery gets another one (a later
   * expiry); the earlier ones stay valid until theirs.
   */
  grant(messageId: string, expiresAtMs: number, round = 0): CallbackGrant {
    return {
      callbackUrl: `${this.config.appOrigin}/api/agent-callbacks/${messageId}`,
      callbackToken: mintCallbackToken(this.key, messageId, expiresAtMs, round),
    };
  }

  /**
   * The expiry and reply round the presented token carries when it is this message's token; null
   * otherwise.
   */
  verify(messageId: string, presented: string): { expiresAtMs: number; round: number } | null {
    return verifyCallbackTokenRound(this.key, messageId, presented);
  }

  /** The webhook answered 202 Accepted: the reply stays pending until a callback or the deadline. */
  accept(messageId: string, expiresAtMs: number, deadlineMinutes: number): Promise<void> {
    return this.tokens.markAwaiting(messageId, expiresAtMs, deadlineMinutes);
  }

  check(messageId: string, expiresAtMs: number): Promise<CallbackCheck> {
    return this.tokens.check(messageId, expiresAtMs);
  }

  replyStatus(messageId: string): Promise<string | null> {
    return this.tokens.replyStatus(messageId);
  }

  overdue(limit = 500): Promise<OverdueCallback[]> {
    return this.tokens.overdue(limit);
  }

  deleteExpired(): Promise<number> {
    return this.tokens.deleteExpired(KEEP_EXPIRED_WAITS_MS);
  }
}
