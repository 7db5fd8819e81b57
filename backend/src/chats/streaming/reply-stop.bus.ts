import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../../common/redis-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

const CHANNEL = 'switchboard:reply-stop';

/**
 * What a reply's webhook call listens to for Stop: the part of AbortSignal it uses (`aborted`, 'abort'
 * listeners), without an AbortController per reply, which in Node 20 costs about as much to make and
 * listen to as the rest of the call's JavaScript together. Listeners run once, in the order added.
 */
export class StopSignal {
  private stopped = false;
  private listeners: Array<() => void> = [];

  get aborted(): boolean {
    return this.stopped;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.stopped && !this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  abort(): void {
    if (this.stopped) return;
    this.stopped = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

/**
 * Stop, wherever the reply's job runs: a job registers the message it answers and gets a signal; a
 * stop aborts it in this process and, with REDIS_URL, in every other one (a Redis pub/sub channel that
 * each api and worker process listens to).
 */
@Injectable()
export class ReplyStopBus implements OnModuleDestroy {
  private readonly logger = new Logger('ReplyStop');
  private readonly running = new Map<string, StopSignal>();
  private readonly publisher: Redis | null;
  private readonly subscriber: Redis | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.redisUrl) {
      this.publisher = this.subscriber = null;
      return;
    }
    this.publisher = createRedisClient(config.redisUrl, 'reply stop publisher', { maxRetriesPerRequest: 1 });
    this.subscriber = createRedisClient(config.redisUrl, 'reply stop subscriber', {
      maxRetriesPerRequest: null,
    });
    this.subscriber.on('message', (_channel: string, messageId: string) => this.abortHere(messageId));
    this.subscriber.subscribe(CHANNEL).catch((error) => this.logger.warn(`Not subscribed: ${String(error)}`));
  }

  // Calls still running are not aborted here: a shutdown drains them like any reply.
  async onModuleDestroy(): Promise<void> {
    await Promise.all([closeRedisClient(this.publisher), closeRedisClient(this.subscriber)]);
  }

  /** A job starts answering `messageId`: the signal aborts when someone stops it; call `release` after. */
  register(messageId: string): { signal: StopSignal; release: () => void } {
    const signal = new StopSignal();
    this.running.set(messageId, signal);
    return {
      signal,
      release: () => {
        if (this.running.get(messageId) === signal) this.running.delete(messageId);
      },
    };
  }

  /** Aborts the reply's webhook call wherever it runs (nothing happens where it does not). */
  async stop(messageId: string): Promise<void> {
    this.abortHere(messageId);
    if (!this.publisher) return;
    await this.publisher
      .publish(CHANNEL, messageId)
      .catch((error) => this.logger.warn(`Stop of ${messageId} not published: ${String(error)}`));
  }

  private abortHere(messageId: string): void {
    this.running.get(messageId)?.abort();
  }
}
