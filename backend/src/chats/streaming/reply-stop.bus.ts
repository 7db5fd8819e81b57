import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../../common/redis-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

const CHANNEL = 'switchboard:reply-stop';

/**
 * Stop, wherever the reply's job runs: a job registers the message it answers and gets a signal; a
 * stop aborts it in this process and, with REDIS_URL, in every other one (a Redis pub/sub channel that
 * each api and worker process listens to).
 */
@Injectable()
export class ReplyStopBus implements OnModuleDestroy {
  private readonly logger = new Logger('ReplyStop');
  private readonly running = new Map<string, AbortController>();
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
  register(messageId: string): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    this.running.set(messageId, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.running.get(messageId) === controller) this.running.delete(messageId);
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
