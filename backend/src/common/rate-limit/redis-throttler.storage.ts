import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../redis-client';

/** Fixed window per key; once over the limit the key is blocked for blockDuration. Atomic in Redis. */
const INCREMENT = `
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then
  local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
  return {hits, redis.call('PTTL', KEYS[1]), 1, blocked}
end
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return {hits, ttl, 1, tonumber(ARGV[3])}
end
return {hits, ttl, 0, 0}
`;

/**
 * Rate-limit counts kept in Redis, so that every api node behind a load balancer counts the same
 * attempts (with the in-memory storage each node would allow the limit on its own).
 */
type ThrottleReply = [number, number, number, number];

/** The client with INCREMENT defined on it as a command. */
type ThrottleClient = Redis & {
  throttleIncrement(
    hits: string,
    block: string,
    ttl: string,
    limit: string,
    blockMs: string,
  ): Promise<ThrottleReply>;
};

@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly redis: ThrottleClient;

  constructor(
    redisUrl: string,
    private readonly prefix: string,
  ) {
    // Gives up within a second while Redis is away: sign-in answers 503, per-user limits go uncounted.
    const redis = createRedisClient(redisUrl, 'rate limits', {
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
      // A request's several limits are checked in the same tick: one write to Redis for all of them.
      enableAutoPipelining: true,
    });
    // A defined command is sent as EVALSHA (the script's text only once, on NOSCRIPT): every request
    // passes here, and EVAL would send the whole script each time.
    redis.defineCommand('throttleIncrement', { numberOfKeys: 2, lua: INCREMENT });
    this.redis = redis as ThrottleClient;
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const base = `${this.prefix}:throttle:${throttlerName}:${key}`;
    const [totalHits, ttlMs, isBlocked, blockMs] = await this.redis.throttleIncrement(
      `${base}:hits`,
      `${base}:block`,
      String(ttl),
      String(limit),
      String(Math.max(blockDuration, 1)),
    );
    return {
      totalHits,
      timeToExpire: Math.max(0, Math.ceil(ttlMs / 1000)),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.max(0, Math.ceil(blockMs / 1000)),
    };
  }

  async onModuleDestroy(): Promise<void> {
    await closeRedisClient(this.redis);
  }
}
