import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../../common/redis-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** A reply as it is being streamed: the user message it answers, and the text so far. */
export interface PartialReply {
  messageId: string;
  text: string;
}

/** Longer than any stream runs (refreshed on every piece): what a crashed job leaves behind expires. */
const PARTIAL_TTL_MS = 15 * 60_000;
/** A page load does not wait longer than this for the text so far (Redis away: shown without it). */
const READ_TIMEOUT_MS = 1_000;
const key = (chatId: string) => `switchboard:reply-stream:${chatId}`;

/**
 * The text so far of each chat's streaming reply, where every api node can read it: a Redis key per
 * chat ("{messageId}\n{text}", appended to, with a TTL) when REDIS_URL is set, an in-process map in the
 * single-process default. A tab opened mid-stream reads it with the chat's messages.
 */
@Injectable()
export class ReplyStreamStore implements OnModuleDestroy {
  private readonly logger = new Logger('ReplyStream');
  private readonly redis: Redis | null;
  private readonly local = new Map<string, PartialReply>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = config.redisUrl
      ? createRedisClient(config.redisUrl, 'reply streams', {
          maxRetriesPerRequest: 1,
          enableAutoPipelining: true,
        })
      : null;
  }

  async onModuleDestroy(): Promise<void> {
    await closeRedisClient(this.redis);
  }

  /** A (new) stream for the chat: what an earlier attempt left is replaced. */
  async begin(chatId: string, messageId: string): Promise<void> {
    if (!this.redis) {
      this.local.set(chatId, { messageId, text: '' });
      return;
    }
    await this.redis
      .set(key(chatId), `${messageId}\n`, 'PX', PARTIAL_TTL_MS)
      .catch((error) => this.warn(error));
  }

  async append(chatId: string, messageId: string, text: string): Promise<void> {
    if (!this.redis) {
      const current = this.local.get(chatId);
      if (current?.messageId === messageId) current.text += text;
      return;
    }
    await this.redis
      .multi()
      .append(key(chatId), text)
      .pexpire(key(chatId), PARTIAL_TTL_MS)
      .exec()
      .catch((error) => this.warn(error));
  }

  /** The chat's streaming reply so far, or null (none, or Redis not answering in time). */
  async read(chatId: string): Promise<PartialReply | null> {
    if (!this.redis) {
      const current = this.local.get(chatId);
      return current ? { ...current } : null;
    }
    let timer: NodeJS.Timeout | undefined;
    const value = await Promise.race([
      this.redis.get(key(chatId)),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), READ_TIMEOUT_MS))),
    ])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    if (!value) return null;
    const newline = value.indexOf('\n');
    if (newline < 0) return null;
    return { messageId: value.slice(0, newline), text: value.slice(newline + 1) };
  }

  /** The reply is stored, failed or stopped: the chat's messages say the rest. */
  async clear(chatId: string, messageId: string): Promise<void> {
    if (!this.redis) {
      if (this.local.get(chatId)?.messageId === messageId) this.local.delete(chatId);
      return;
    }
    // Only this message's stream: a newer one of the chat is left alone.
    await this.redis
      .eval(
        `local v = redis.call('GET', KEYS[1])
         if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '\n' then redis.call('DEL', KEYS[1]) end
         return 0`,
        1,
        key(chatId),
        messageId,
      )
      .catch((error) => this.warn(error));
  }

  private warn(error: unknown): void {
    this.logger.warn(`Reply stream text not kept in Redis: ${String(error)}`);
  }
}
