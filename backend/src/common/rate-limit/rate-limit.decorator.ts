import { SetMetadata } from '@nestjs/common';
import type { RateLimitName } from './rate-limits';

export const RATE_LIMIT = 'switchboard:rate-limit';

/** Counts this route against the named entry of RATE_LIMITS. */
export const RateLimit = (name: RateLimitName) => SetMetadata(RATE_LIMIT, name);
