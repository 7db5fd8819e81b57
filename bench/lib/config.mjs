// Paths and sizes of a bench run. Every phase reads its sizes from CONFIG, which is written to
// bench/results/latest.json as is: a new phase adds its own section here.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_DIR = join(ROOT, 'bench');
export const APP_ENTRY = join(ROOT, 'backend', 'dist', 'main.js');
// The app's PostgreSQL pool size (backend/src/database/data-source-options.ts); the baseline uses the same.
export const APP_POOL_SIZE = 20;

export const CONFIG = {
  warmup: 20,
  sequential: 300,
  sequentialBlocks: 10,
  // BENCH_CONCURRENT_CHATS overrides K (e.g. to measure below a limit the app hits at 20).
  concurrentChats: Number(process.env.BENCH_CONCURRENT_CHATS) || 20,
  messagesPerChat: 25,
  concurrentBlocks: 5,
  concurrentWarmupPerChat: 2,
  history: { bigChat: 10_000, smallChat: 100, requests: 200, warmup: 20, pageSize: 50 },
  hostileBodies: { depth: 40_000, requests: 100, warmup: 10 },
  replyTimeoutMs: 15_000,
  requestTimeoutMs: 15_000,
  startupTimeoutMs: 120_000,
  buildTimeoutMs: 5 * 60_000,
  // Everything after the build (app start, all measurements) must fit in this.
  overallTimeoutMs: 5 * 60_000,
};
