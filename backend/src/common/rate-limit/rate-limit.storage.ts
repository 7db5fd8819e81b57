import type { ThrottlerStorage } from '@nestjs/throttler';

/** @nestjs/throttler's storage contract: in memory (one process) or Redis (shared by api nodes). */
export type RateLimitStorage = ThrottlerStorage;

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
/** Multiplies every limit (RATE_LIMIT_SCALE): test suites that sign up hundreds of accounts use it. */
export const RATE_LIMIT_SCALE = Symbol('RATE_LIMIT_SCALE');
