import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/** One counter a message takes a unit of: a member's day or the company's month. */
export interface QuotaCounter {
  /** Where it is kept (the Redis key; the map key in one process). */
  key: string;
  limit: number;
  /** The period's end (ms): the counter expires then. */
  expiresAtMs: number;
  /** Counts what PostgreSQL knows of the period, to start a counter that is not there. */
  seed: () => Promise<number>;
}

/** Admitted: a unit taken on each counter; refused: the first counter already at its limit. */
export type TakeResult = { taken: true } | { taken: false; counter: QuotaCounter; used: number };

/** Counters of the message quotas: take a unit on each of them at once, or none. */
export interface MessageCounters {
  take(counters: readonly QuotaCounter[], nowMs: number): Promise<TakeResult>;
  /** Gives a unit back (a message taken but then not stored). */
  giveBack(counters: readonly QuotaCounter[]): Promise<void>;
  /** What a counter holds now, or null when there is none (nothing counted this period yet). */
  peek(key: string, nowMs: number): Promise<number | null>;
}

/**
 * The counters of a single process (no REDIS_URL): a map, started from PostgreSQL's count the first
 * time a period's counter is used, then checked and taken synchronously, so simultaneous requests of
 * the process cannot both pass on the last unit.
 */
export class LocalMessageCounters implements MessageCounters {
  private readonly counts = new Map<string, { used: number; expiresAtMs: number }>();
  private readonly seeding = new Map<string, Promise<void>>();

  async take(counters: readonly QuotaCounter[], nowMs: number): Promise<TakeResult> {
    this.forgetExpired(nowMs);
    for (const counter of counters) await this.ensure(counter, nowMs);
    // From here on nothing awaits: check and take as one step.
    for (const counter of counters) {
      const used = this.counts.get(counter.key)?.used ?? 0;
      if (used + 1 > counter.limit) return { taken: false, counter, used };
    }
    for (const counter of counters) {
      const entry = this.counts.get(counter.key);
      if (entry) entry.used++;
    }
    return { taken: true };
  }

  giveBack(counters: readonly QuotaCounter[]): Promise<void> {
    for (const counter of counters) {
      const entry = this.counts.get(counter.key);
      if (entry && entry.used > 0) entry.used--;
    }
    return Promise.resolve();
  }

  peek(key: string, nowMs: number): Promise<number | null> {
    const entry = this.counts.get(key);
    return Promise.resolve(entry && entry.expiresAtMs > nowMs ? entry.used : null);
  }

  private async ensure(counter: QuotaCounter, nowMs: number): Promise<void> {
    const entry = this.counts.get(counter.key);
    if (entry && entry.expiresAtMs > nowMs) return;
    let seeding = this.seeding.get(counter.key);
    if (!seeding) {
      seeding = counter
        .seed()
        .then((used) => {
          this.counts.set(counter.key, { used, expiresAtMs: counter.expiresAtMs });
        })
        .finally(() => this.seeding.delete(counter.key));
      this.seeding.set(counter.key, seeding);
    }
    await seeding;
  }

  private forgetExpired(nowMs: number): void {
    if (this.counts.size < 1000) return;
    for (const [key, entry] of this.counts) if (entry.expiresAtMs <= nowMs) this.counts.delete(key);
  }
}

/**
 * Takes a unit on every counter (KEYS) or on none, atomically: a counter that is not there is started
 * from its seed (ARGV, -1: not known yet, the caller counts it and asks again), or from it in all cases
 * when told to (a counter left behind while Redis was away). ARGV per key: limit, expiry (ms since the
 * epoch), seed, reseed (1/0). Answers {1} (taken), {0, i, used} (counter i at its limit), {-1, i}
 * (counter i needs its seed).
 */
const TAKE_SCRIPT = `
for i = 1, #KEYS do
  local base = (i - 1) * 4
  local seed = tonumber(ARGV[base + 3])
  if seed >= 0 and (ARGV[base + 4] == '1' or redis.call('EXISTS', KEYS[i]) == 0) then
    redis.call('SET', KEYS[i], seed, 'PXAT', ARGV[base + 2])
  elseif redis.call('EXISTS', KEYS[i]) == 0 then
    return {-1, i}
  end
end
for i = 1, #KEYS do
  local used = tonumber(redis.call('GET', KEYS[i]))
  if used + 1 > tonumber(ARGV[(i - 1) * 4 + 1]) then return {0, i, used} end
end
for i = 1, #KEYS do redis.call('INCR', KEYS[i]) end
return {1}
`;

/** A unit back on each counter still there (never below 0). */
const GIVE_BACK_SCRIPT = `
for i = 1, #KEYS do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;

type ScriptClient = Redis & {
  quotaTake(numKeys: number, ...args: Array<string | number>): Promise<number[]>;
  quotaGiveBack(numKeys: number, ...keys: string[]): Promise<number>;
};

/** Thrown when Redis cannot count now: the caller counts from PostgreSQL instead. */
export class CountersUnavailableError extends Error {}

/**
 * The counters of every node (REDIS_URL): one Lua script checks and takes them, so two nodes cannot
 * both pass on the last unit. Each counter expires at its period's end. A Redis that is away fails
 * at once (CountersUnavailableError); the counters this process could not keep meanwhile are started
 * again from PostgreSQL the next time (what was sent while Redis was away is not in them).
 */
export class RedisMessageCounters implements MessageCounters {
  private readonly logger = new Logger('MessageQuotas');
  private readonly client: ScriptClient;
  /** Counters used while Redis was away: started again from PostgreSQL on their next use. */
  private readonly stale = new Set<string>();

  constructor(client: Redis) {
    client.defineCommand('quotaTake', { lua: TAKE_SCRIPT });
    client.defineCommand('quotaGiveBack', { lua: GIVE_BACK_SCRIPT });
    this.client = client as ScriptClient;
  }

  async take(counters: readonly QuotaCounter[], _nowMs: number): Promise<TakeResult> {
    this.checkConnected();
    const seeds = new Map<string, number>();
    for (const key of counters.filter((c) => this.stale.has(c.key))) seeds.set(key.key, await key.seed());
    for (let round = 0; round <= counters.length; round++) {
      const args = counters.flatMap((c) => [
        c.limit,
        c.expiresAtMs,
        seeds.get(c.key) ?? -1,
        this.stale.has(c.key) ? 1 : 0,
      ]);
      const answer = await this.run(() =>
        this.client.quotaTake(counters.length, ...counters.map((c) => c.key), ...args),
      );
      for (const c of counters) this.stale.delete(c.key);
      const [status, index, used] = answer.map(Number);
      if (status === 1) return { taken: true };
      const counter = counters[index - 1];
      if (status === 0) return { taken: false, counter, used };
      seeds.set(counter.key, await counter.seed());
    }
    throw new CountersUnavailableError('the counters could not be started');
  }

  async giveBack(counters: readonly QuotaCounter[]): Promise<void> {
    try {
      this.checkConnected();
      await this.run(() => this.client.quotaGiveBack(counters.length, ...counters.map((c) => c.key)));
    } catch (error) {
      // Not given back: the counter is one too high until its period ends (or it is started again).
      this.logger.warn(`Could not give back a message quota unit: ${String(error)}`);
    }
  }

  async peek(key: string): Promise<number | null> {
    if (this.stale.has(key)) return null;
    try {
      this.checkConnected();
      const value = await this.run(() => this.client.get(key));
      return value === null ? null : Number(value);
    } catch {
      return null;
    }
  }

  /** Marks counters to start again from PostgreSQL (they missed messages while Redis was away). */
  markStale(counters: readonly QuotaCounter[]): void {
    for (const c of counters) this.stale.add(c.key);
  }

  private checkConnected(): void {
    const status = this.client.status;
    if (status === 'ready' || status === 'connecting' || status === 'connect' || status === 'wait') return;
    throw new CountersUnavailableError(`Redis is ${status}`);
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new CountersUnavailableError(String(error));
    }
  }
}
