import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_SCALE, RATE_LIMIT_STORAGE } from './rate-limit.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';

/**
 * The counts behind RATE_LIMITS: in Redis when REDIS_URL is set, so every api node shares them; in
 * memory otherwise (one process). The guard itself is registered by AuthModule, after the access-token
 * guard, because per-user buckets need the signed-in user.
 */
@Global()
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const redisUrl = config.redisUrl;
    return {
      module: RateLimitModule,
      providers: [
        {
          provide: RATE_LIMIT_STORAGE,
          useFactory: () =>
            redisUrl ? new RedisThrottlerStorage(redisUrl, config.queuePrefix) : new MemoryThrottlerStorage(),
        },
        { provide: RATE_LIMIT_SCALE, useValue: config.rateLimitScale },
        RateLimitGuard,
      ],
      exports: [RATE_LIMIT_STORAGE, RATE_LIMIT_SCALE, RateLimitGuard],
    };
  }
}
