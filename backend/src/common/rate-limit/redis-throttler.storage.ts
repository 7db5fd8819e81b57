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
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly redis: Redis;

  constructor(
    redisUrl: string,
    private readonly prefix: string,
  ) {
    // Gives up within a second while Redis is away: sign-in answers 503, per-user limits go uncounted.
    this.redis = createRedisClient(redisUrl, 'rate limits', {
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
    });
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const base = `${this.prefix}:throttle:${throttlerName}:${key}`;
    const [totalHits, ttlMs, isBlocked, blockMs] = (await this.redis.eval(
      INCREMENT,
      2,
      `${base}:hits`,
      `${base}:block`,
      String(ttl),
      String(limit),
      String(Math.max(blockDuration, 1)),
    )) as [number, number, number, number];
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
