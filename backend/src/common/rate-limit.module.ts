import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerOptions } from '@nestjs/throttler';
import type { AppConfig } from '../config/app-config';
import { RedisThrottlerStorage } from './redis-throttler.storage';

const THROTTLERS: ThrottlerOptions[] = [{ name: 'auth', ttl: 60_000, limit: 20 }];

/** Holds the Redis storage as a provider, so that its connection closes with the application. */
@Module({})
class RedisThrottlerStorageModule {
  static forRoot(redisUrl: string, prefix: string): DynamicModule {
    return {
      module: RedisThrottlerStorageModule,
      providers: [
        { provide: RedisThrottlerStorage, useFactory: () => new RedisThrottlerStorage(redisUrl, prefix) },
      ],
      exports: [RedisThrottlerStorage],
    };
  }
}

/**
 * Rate limits of the throttled routes (sign-in, registration, reset, the demo agent): counted in Redis
 * when REDIS_URL is set, so every api node shares them; in memory otherwise (one process).
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const redisUrl = config.redisUrl;
    return {
      module: RateLimitModule,
      imports: [
        redisUrl
          ? ThrottlerModule.forRootAsync({
              imports: [RedisThrottlerStorageModule.forRoot(redisUrl, config.queuePrefix)],
              inject: [RedisThrottlerStorage],
              useFactory: (storage: RedisThrottlerStorage) => ({ throttlers: THROTTLERS, storage }),
            })
          : ThrottlerModule.forRoot({ throttlers: THROTTLERS }),
      ],
    };
  }
}
