import { ThrottlerModule } from '@nestjs/throttler';

/**
 * Rate-limit storage for the throttled routes (sign-in, registration, reset, the demo agent). Limits
 * are per process; behind several api nodes each node counts for itself.
 */
export const RateLimitModule = ThrottlerModule.forRoot({
  throttlers: [{ name: 'auth', ttl: 60_000, limit: 20 }],
});
