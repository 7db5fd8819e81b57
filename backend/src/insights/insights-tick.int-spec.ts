import type { Redis } from 'ioredis';
import { loadConfig } from '../config/app-config';
import type { RealtimePublisher } from '../realtime/realtime-publisher';
import { InsightsTicker } from './insights-recorder';

const redisUrl = process.env.REDIS_URL;
// CI always sets REDIS_URL; without it there is no second process to share a gate with.
const describeWithRedis = redisUrl ? describe : describe.skip;

/** A ticker as one api or worker process has it, recording the ticks it sends. */
function processTicker(ticks: Array<{ at: number; from: number }>, index: number): InsightsTicker {
  const realtime = {
    toCompanyManagers: (_companyId: string, event: string) => {
      if (event === 'insights.tick') ticks.push({ at: Date.now(), from: index });
    },
  } as unknown as RealtimePublisher;
  const config = loadConfig({
    DATA_DIR: '/tmp',
    JWT_SECRET: 'tick-test-secret-that-is-long-enough-0000',
    REDIS_URL: redisUrl,
  });
  const ticker = new InsightsTicker(realtime, config);
  ticker.windowMs = 300;
  return ticker;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithRedis('insights.tick across processes (one Redis gate per company)', () => {
  const ticks: Array<{ at: number; from: number }> = [];
  const tickers = [0, 1, 2].map((i) => processTicker(ticks, i));

  afterAll(async () => {
    await Promise.all(tickers.map((t) => t.onModuleDestroy()));
  });

  it('sends at most one tick per window for the company, whichever process saw the changes, and one after the last', async () => {
    const companyId = `00000000-0000-4000-8000-${String(Date.now()).slice(-12)}`;
    await sleep(200); // the gates' connections
    const started = Date.now();
    let lastTouch = 0;
    while (Date.now() - started < 2_000) {
      for (const ticker of tickers) ticker.touch(companyId);
      lastTouch = Date.now();
      await sleep(25);
    }
    await sleep(1_200);
    // Three processes, each ticking every 300 ms alone, would send about 20.
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(Math.ceil(2_000 / 300) + 2);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i].at - ticks[i - 1].at).toBeGreaterThanOrEqual(250);
    // The last change was followed by a tick.
    expect(ticks[ticks.length - 1].at).toBeGreaterThanOrEqual(lastTouch);
  }, 15_000);

  it('sends nothing once it is destroyed, not even from a tick that was waiting for the gate', async () => {
    const companyId = `00000000-0000-4000-8000-${String(Date.now() + 1).slice(-12)}`;
    const late: Array<{ at: number; from: number }> = [];
    const ticker = processTicker(late, 9);
    const gate = (ticker as unknown as { gate: Redis }).gate;
    await new Promise<void>((resolve) => (gate.status === 'ready' ? resolve() : gate.once('ready', resolve)));
    // The app closes while the tick's SET NX is on its way to Redis.
    let closing: Promise<void> | undefined;
    const set = gate.set.bind(gate) as (...args: unknown[]) => Promise<unknown>;
    gate.set = ((...args: unknown[]) => {
      const sent = set(...args);
      closing = ticker.onModuleDestroy();
      return sent;
    }) as Redis['set'];
    ticker.touch(companyId);
    const deadline = Date.now() + 5_000;
    while (!closing && Date.now() < deadline) await sleep(20);
    expect(closing).toBeDefined();
    await closing;
    ticker.touch(companyId);
    await sleep(3 * ticker.windowMs);
    expect(late).toEqual([]);
  }, 15_000);
});
