import { MemoryThrottlerStorage } from './memory-throttler.storage';

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;
  const hit = (key = 'user:a', limit = 3) => storage.increment(key, 60_000, limit, 60_000, 'rl');

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage(() => now);
  });
  afterEach(() => storage.onModuleDestroy());

  it('counts a fixed window and blocks the first hit over the limit for the block duration', async () => {
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    now += 10_000;
    await hit();
    expect((await hit()).isBlocked).toBe(false);
    now += 5_000;
    // Fourth of a limit of 3: blocked for the whole block duration from now, not from the window's start.
    expect(await hit()).toEqual({ totalHits: 4, timeToExpire: 45, isBlocked: true, timeToBlockExpire: 60 });
  });

  it('does not count refused attempts and lets the key in again once the block ends', async () => {
    for (let i = 0; i < 4; i++) await hit();
    now += 30_000;
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000;
    // The window ended before the block did: a new window starts at 1.
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('starts a new window when the last one ended, and keeps keys and limit names apart', async () => {
    await hit('user:a');
    await hit('user:a');
    expect((await storage.increment('user:a', 60_000, 3, 60_000, 'other')).totalHits).toBe(1);
    expect((await hit('user:b')).totalHits).toBe(1);
    now += 60_000;
    expect((await hit('user:a')).totalHits).toBe(1);
  });

  it('forgets keys whose window and block have ended, and only those', async () => {
    for (let i = 0; i < 3; i++) await hit('user:blocked');
    now += 1_000;
    await hit('user:blocked');
    await hit('user:quiet');
    now += 59_500;
    storage.forgetEnded();
    // user:blocked's window has ended but its block (from its fourth hit) has 0.5 s left; user:quiet's
    // window has 0.5 s left too.
    expect(storage.size).toBe(2);
    now += 1_500;
    storage.forgetEnded();
    expect(storage.size).toBe(0);
  });

  it('costs the same whatever the limit: a scaled-up limit holds one counter per key', async () => {
    for (let i = 0; i < 10_000; i++) await storage.increment('user:a', 60_000, 60_000, 60_000, 'rl');
    expect(storage.size).toBe(1);
    expect((await storage.increment('user:a', 60_000, 60_000, 60_000, 'rl')).totalHits).toBe(10_001);
  });
});
