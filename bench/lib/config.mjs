// Paths and sizes of a bench run. Every phase reads its sizes from CONFIG, which is written to
// bench/results/latest.json as is: a new phase adds its own section here.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_DIR = join(ROOT, 'bench');
// BENCH_APP_DIST=backend/dist-bench runs the app built there instead (a build of one's own that a
// concurrent `nest build`, which empties backend/dist first, cannot pull from under a running bench).
export const APP_DIST = process.env.BENCH_APP_DIST
  ? resolve(ROOT, process.env.BENCH_APP_DIST)
  : join(ROOT, 'backend', 'dist');
export const APP_ENTRY = join(APP_DIST, 'main.js');
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
  // Regenerate vs first reply, each one at a time in its own chat, in interleaved blocks.
  regenerate: { warmup: 20, total: 200, blocks: 8 },
  history: { bigChat: 10_000, smallChat: 100, requests: 200, warmup: 20, pageSize: 50 },
  statements: { messages: 50, top: 16 },
  // BENCH_FANOUT_SIZES=10000 measures only these sizes (comma-separated).
  fanOut: {
    sizes: process.env.BENCH_FANOUT_SIZES
      ? process.env.BENCH_FANOUT_SIZES.split(',').map(Number)
      : [100, 1000, 10_000],
    warmup: 5,
    triggers: Number(process.env.BENCH_FANOUT_TRIGGERS) || 40,
    // At 10,000 sockets an emit leaves megabytes behind and a major GC lands in about one emit in a
    // hundred, in either system: 40 triggers' p99 is then one such pause or none. 120 measure it.
    bigTriggers: Number(process.env.BENCH_FANOUT_TRIGGERS) || 120,
    bigFrom: 5_000,
    timeoutMs: 20_000,
  },
  // 10,000 sockets on one node: memory per socket and fan-out at that size, and a steady load on them.
  memory: { sockets: Number(process.env.BENCH_MEMORY_SOCKETS) || 10_000, steps: 4, settleMs: 1500 },
  // BENCH_STEADY_S shortens the steady load (5 minutes by default).
  steady: { users: 250, socketsPerUser: 40, rate: 50, seconds: Number(process.env.BENCH_STEADY_S) || 300 },
  lists: { rows: 10_000, warmup: 5, requests: 30 },
  distributed: { workerStartMs: 3000 },
  // BENCH_CALLS_CHATS overrides the number of chats (one message in flight in each).
  callsInFlight: {
    chats: Number(process.env.BENCH_CALLS_CHATS) || 1000,
    agentDelayMs: 5000,
    capped: 250,
    sendConcurrency: 50,
    goalInFlight: 500,
    goalLastReplyMs: 15_000,
    // 200 streamed replies at once, 20 pieces a second each for 3 s.
    streams: Number(process.env.BENCH_STREAMS) || 200,
    streamChunks: 60,
    chunkEveryMs: 50,
  },
  hostileBodies: { depth: 40_000, requests: 100, warmup: 10 },
  replyTimeoutMs: 15_000,
  requestTimeoutMs: 15_000,
  startupTimeoutMs: 120_000,
  buildTimeoutMs: 5 * 60_000,
  // Everything after the build (app start, all measurements) must fit in this.
  overallTimeoutMs: 25 * 60_000,
};
