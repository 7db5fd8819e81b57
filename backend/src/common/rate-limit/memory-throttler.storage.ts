import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

interface Window {
  hits: number;
  /** When this window's count starts again from zero (epoch ms). */
  resetsAt: number;
  /** Blocked until then (epoch ms); 0 when not blocked. */
  blockedUntil: number;
}

/** How often windows that ended are forgotten. */
const SWEEP_MS = 60_000;

/**
 * Rate-limit counts of a single process (no REDIS_URL), counted as the Redis storage counts them: a fixed
 * window per key, and once over the limit the key is blocked for blockDuration, the refused attempts not
 * counted. One counter per key, so a request costs the same whatever the limit. (@nestjs/throttler's
 * in-memory storage keeps one timestamp per hit and filters the whole list on every request: a sliding
 * log whose cost grows with the limit, and whose answers differed from the Redis storage's.)
 */
@Injectable()
export class MemoryThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly windows = new Map<string, Window>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweep = setInterval(() => this.forgetEnded(), SWEEP_MS);
    this.sweep.unref();
  }

  /** Number of keys held (for tests: ended windows are forgotten). */
  get size(): number {
    return this.windows.size;
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const now = this.now();
    const id = `${throttlerName}:${key}`;
    let window = this.windows.get(id);
    if (window && window.blockedUntil > now) return Promise.resolve(this.answer(window, now, true));
    if (!window || window.resetsAt <= now) {
      window = { hits: 0, resetsAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    }
    window.hits += 1;
    if (window.hits > limit) {
      window.blockedUntil = now + Math.max(blockDuration, 1);
      return Promise.resolve(this.answer(window, now, true));
    }
    return Promise.resolve(this.answer(window, now, false));
  }

  onModuleDestroy(): void {
    clearInterval(this.sweep);
  }

  /** Forgets every key whose window and block have both ended. */
  forgetEnded(): void {
    const now = this.now();
    for (const [id, window] of this.windows)
      if (window.resetsAt <= now && window.blockedUntil <= now) this.windows.delete(id);
  }

  private answer(window: Window, now: number, isBlocked: boolean) {
    return {
      totalHits: window.hits,
      timeToExpire: Math.max(0, Math.ceil((window.resetsAt - now) / 1000)),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.max(0, Math.ceil((window.blockedUntil - now) / 1000)) : 0,
    };
  }
}
