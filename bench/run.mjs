// `npm run bench`: Switchboard's message round trip and history loading, measured against a bare
// Socket.IO + PostgreSQL baseline in the same run on the same machine. See bench/README.md.
import { fork, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io } from 'socket.io-client';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_DIR = join(ROOT, 'bench');
const APP_ENTRY = join(ROOT, 'backend', 'dist', 'main.js');
// The app's PostgreSQL pool size (backend/src/database/data-source-options.ts); the baseline uses the same.
const APP_POOL_SIZE = 20;

const CONFIG = {
  warmup: 20,
  sequential: 300,
  sequentialBlocks: 10,
  // BENCH_CONCURRENT_CHATS overrides K (e.g. to measure below a limit the app hits at 20).
  concurrentChats: Number(process.env.BENCH_CONCURRENT_CHATS) || 20,
  messagesPerChat: 25,
  concurrentBlocks: 5,
  concurrentWarmupPerChat: 2,
  history: { bigChat: 10_000, smallChat: 100, requests: 200, warmup: 20, pageSize: 50 },
  replyTimeoutMs: 15_000,
  requestTimeoutMs: 15_000,
  startupTimeoutMs: 120_000,
  buildTimeoutMs: 5 * 60_000,
  // Everything after the build (app start, all measurements) must fit in this.
  overallTimeoutMs: 5 * 60_000,
};

// ---------------------------------------------------------------------------------------------------
// Cleanup: every resource registers how to release itself; run once, last registered first.

const cleanups = [];
let cleanupRun = null;

function onCleanup(label, fn) {
  cleanups.push({ label, fn });
}

function cleanup() {
  cleanupRun ??= (async () => {
    while (cleanups.length) {
      const { label, fn } = cleanups.pop();
      try {
        await fn();
      } catch (error) {
        console.error(`cleanup (${label}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleanupRun;
}

let appLog = [];

/** What bench/results/latest.json gets: filled as phases finish, so a failed run still leaves its partial results. */
const report = {
  date: new Date().toISOString(),
  status: 'running',
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  },
  config: CONFIG,
};

function writeReport() {
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(join(BENCH_DIR, 'results', 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
}
/** Set once the bench has its own database connection: what the app's connections were doing. */
let describeDatabase = null;
/** Set once the app is up: after a failure, is it still answering at all? */
let appBase = null;

let failing = false;

async function failAndExit(error) {
  if (failing) return;
  failing = true;
  console.error(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  report.status = 'failed';
  report.error = error instanceof Error ? error.message : String(error);
  if (describeDatabase) {
    try {
      const activity = await withTimeout(describeDatabase(), 5000, 'pg_stat_activity');
      report.databaseAtFailure = activity;
      console.error(`\nthe app's database connections at the failure (pg_stat_activity):`);
      for (const r of activity) {
        const wait = `${r.wait_event_type ?? '-'}/${r.wait_event ?? '-'}`;
        console.error(`  ${r.connections} × ${r.state} (${wait}, up to ${r.longest_s} s), e.g. ${r.query}`);
      }
      if (activity.some((r) => r.state === 'idle in transaction' && r.connections >= APP_POOL_SIZE)) {
        console.error(
          `  → all ${APP_POOL_SIZE} pool connections sit idle inside transactions: each transaction waits for a\n` +
            '    second connection from the same pool, which none of them can release (pool-exhaustion deadlock).',
        );
      }
    } catch (e) {
      console.error(`(could not read pg_stat_activity: ${e instanceof Error ? e.message : String(e)})`);
    }
  }
  if (appBase) {
    const started = now();
    try {
      const res = await fetch(`${appBase}/api/health`, { signal: AbortSignal.timeout(3000) });
      report.healthAtFailure = `${res.status} in ${Math.round(now() - started)} ms`;
    } catch {
      report.healthAtFailure = 'no answer within 3000 ms';
    }
    console.error(`\nGET /api/health after the failure: ${report.healthAtFailure}`);
  }
  if (appLog.length) console.error(`\nlast lines of the app's output:\n${appLog.slice(-40).join('\n')}`);
  try {
    writeReport();
    console.error('\npartial results written to bench/results/latest.json');
  } catch {
    /* nothing more to do */
  }
  await cleanup();
  process.exit(1);
}

process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping the app and removing the temporary data directory');
  void cleanup().finally(() => process.exit(130));
});
process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
process.on('unhandledRejection', (error) => void failAndExit(error));
process.on('uncaughtException', (error) => void failAndExit(error));

// ---------------------------------------------------------------------------------------------------
// Small helpers.

const now = () => performance.now();

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function withTimeout(promise, ms, label) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${label}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Latency percentiles (ms) and, given the wall time of the run, throughput (per second). */
function summarize(samples, wallMs) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  const round = (x) => Math.round(x * 1000) / 1000;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    mean: round(mean),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
    ...(wallMs === undefined
      ? {}
      : { wallMs: Math.round(wallMs), perSecond: Math.round((sorted.length / wallMs) * 1000 * 10) / 10 }),
  };
}

function connectSocket(url, auth) {
  const socket = io(url, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 10_000,
  });
  onCleanup('socket', () => socket.close());
  return withTimeout(
    new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (error) =>
        reject(new Error(`socket connect to ${url}: ${error.message}`)),
      );
    }),
    12_000,
    `socket connect to ${url}`,
  );
}

/**
 * Routes agent replies to whoever waits for them, one waiter per chat (a chat has at most one message
 * in flight: the app answers 409 otherwise). The arrival time is taken in the event handler itself.
 */
function replyRouter(socket, failureEvents) {
  const waiters = new Map();
  const settle = (chatId, outcome) => {
    const waiter = waiters.get(chatId);
    if (!waiter) return;
    waiters.delete(chatId);
    clearTimeout(waiter.timer);
    outcome(waiter);
  };
  socket.on('message.created', (payload) => {
    if (payload?.message?.senderType !== 'agent') return;
    const at = now();
    settle(payload.chatId, (w) => w.resolve(at));
  });
  for (const event of failureEvents) {
    socket.on(event, (payload) =>
      settle(payload?.chatId, (w) => w.reject(new Error(`${event}: ${payload?.reason}`))),
    );
  }
  return {
    wait(chatId, timeoutMs) {
      if (waiters.has(chatId)) throw new Error(`already waiting for a reply in chat ${chatId}`);
      const reply = new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(chatId);
          reject(new Error(`no agent reply within ${timeoutMs} ms in chat ${chatId}`));
        }, timeoutMs);
        waiters.set(chatId, { resolve, reject, timer });
      });
      // Awaited only once the send itself is done: until then a rejection is not "unhandled".
      reply.catch(() => undefined);
      return reply;
    },
    cancel(chatId) {
      settle(chatId, (w) => w.reject(new Error('cancelled')));
    },
  };
}

/** n messages one after another in one chat. */
async function runSequential(send, chatId, n) {
  const latencies = [];
  const started = now();
  for (let i = 0; i < n; i++) latencies.push(await send(chatId, i));
  return { latencies, wallMs: now() - started };
}

/** One sequential sender per chat, all chats at once. */
async function runConcurrent(send, chatIds, perChat) {
  const latencies = [];
  const started = now();
  await Promise.all(
    chatIds.map(async (chatId) => {
      for (let i = 0; i < perChat; i++) latencies.push(await send(chatId, i));
    }),
  );
  return { latencies, wallMs: now() - started };
}

/**
 * Warm-up, then the sequential and concurrent shapes for every system under test. The measured runs are
 * cut into blocks and the systems take turns (A B B A ...), so background load on a shared machine
 * lands on all of them alike instead of on whichever happened to run during it.
 */
async function measureRoundTrips(systems, results) {
  process.stdout.write('  warm-up');
  for (const system of systems) {
    await runSequential(system.send, system.sequentialChat, CONFIG.warmup);
    await runConcurrent(system.send, system.concurrentChats, CONFIG.concurrentWarmupPerChat);
  }
  for (const system of systems) results[system.name] = {};
  const shapes = [
    {
      name: 'sequential',
      blocks: CONFIG.sequentialBlocks,
      run: (system, size) => runSequential(system.send, system.sequentialChat, size),
      label: `sequential ${CONFIG.sequential}`,
      total: CONFIG.sequential,
    },
    {
      name: 'concurrent',
      blocks: CONFIG.concurrentBlocks,
      run: (system, size) => runConcurrent(system.send, system.concurrentChats, size),
      label: `concurrent ${CONFIG.concurrentChats}×${CONFIG.messagesPerChat}`,
      total: CONFIG.messagesPerChat,
    },
  ];
  for (const shape of shapes) {
    process.stdout.write(`, ${shape.label}`);
    const size = Math.ceil(shape.total / shape.blocks);
    const acc = new Map(systems.map((system) => [system, { latencies: [], wallMs: 0 }]));
    for (let block = 0, done = 0; done < shape.total; block++, done += size) {
      const order = block % 2 === 0 ? systems : [...systems].reverse();
      for (const system of order) {
        system.probe.begin();
        const run = await shape.run(system, Math.min(size, shape.total - done));
        system.probe.end();
        acc.get(system).latencies.push(...run.latencies);
        acc.get(system).wallMs += run.wallMs;
      }
    }
    for (const system of systems) {
      const { latencies, wallMs } = acc.get(system);
      results[system.name][shape.name] = {
        ...summarize(latencies, wallMs),
        ...system.probe.take(latencies.length),
      };
    }
  }
  process.stdout.write(' done\n');
  return results;
}

// ---------------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux only; elsewhere the CPU columns read '-'): where the time goes.

const HAS_PROC = existsSync('/proc/self/stat');
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux

function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' '); // [0] is field 3 (state)
  } catch {
    return null;
  }
}

/** User + system CPU of a process (ms); with children, also of its children that have exited. */
function processCpuMs(pid, withExitedChildren = false) {
  const f = pid ? procStat(pid) : null;
  if (!f) return 0;
  const ticks = Number(f[11]) + Number(f[12]) + (withExitedChildren ? Number(f[13]) + Number(f[14]) : 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The embedded PostgreSQL: the postmaster and every backend and helper it forked. */
function postgresCpuMs(postmasterPid) {
  let total = processCpuMs(postmasterPid, true);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = procStat(name);
    if (f && Number(f[1]) === postmasterPid) total += processCpuMs(name);
  }
  return total;
}

function benchCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Probe for measureRoundTrips: CPU ms per message of the server process, PostgreSQL and this process,
 * summed over the blocks between begin() and end(); take() returns it (with `extra`'s figures) and resets.
 */
function cpuProbe(serverPid, postmasterPid, extra = { begin() {}, end() {}, take: () => ({}) }) {
  const sample = () => ({
    server: processCpuMs(serverPid),
    postgres: postgresCpuMs(postmasterPid),
    client: benchCpuMs(),
  });
  let before = null;
  let used = { server: 0, postgres: 0, client: 0 };
  return {
    begin() {
      extra.begin();
      before = HAS_PROC ? sample() : null;
    },
    end() {
      extra.end();
      if (!before) return;
      const after = sample();
      for (const key of Object.keys(used)) used[key] += after[key] - before[key];
    },
    take(count) {
      const result = extra.take();
      const per = (key) => Math.round((used[key] / count) * 100) / 100;
      const cpu = HAS_PROC
        ? { cpuMsPerMessage: { server: per('server'), postgres: per('postgres'), client: per('client') } }
        : {};
      used = { server: 0, postgres: 0, client: 0 };
      return { ...result, ...cpu };
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The pieces: a webhook that answers at once, the app, the baseline server.

async function startWebhook() {
  const reply = JSON.stringify([{ output: 'ok' }]);
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  onCleanup('webhook', () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/agent`,
    hostPort: `127.0.0.1:${server.address().port}`,
    calls: () => calls,
  };
}

function buildIfMissing() {
  if (existsSync(APP_ENTRY)) return;
  console.log('backend/dist/main.js is missing: running `npx nest build`');
  const result = spawnSync('npx', ['nest', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: CONFIG.buildTimeoutMs,
  });
  if (result.status !== 0 || !existsSync(APP_ENTRY))
    throw new Error(`nest build failed (status ${result.status})`);
}

/** The embedded PostgreSQL the app started: port on line 4 of its postmaster.pid. */
function embeddedPostgres(dataDir) {
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/** A postmaster left behind by an app that had to be killed: stop it (by its pid) before deleting its files. */
async function stopLeftoverPostgres(dataDir) {
  const postgres = embeddedPostgres(dataDir);
  if (!postgres || !Number.isInteger(postgres.pid) || postgres.pid <= 0 || !isAlive(postgres.pid)) return;
  process.kill(postgres.pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(postgres.pid); i++) await delay(100);
  if (isAlive(postgres.pid)) process.kill(postgres.pid, 'SIGKILL');
}

async function startApp(webhookHostPort) {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'switchboard-bench-'));
  onCleanup('data dir', async () => {
    await stopLeftoverPostgres(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const port = await freePort();
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PROCESS_ROLE', 'DEFAULT_AGENT_WEBHOOK']) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: `http://127.0.0.1:${port}`,
    WEBHOOK_ALLOWED_HOSTS: webhookHostPort,
  });
  // BENCH_APP_NODE_ARGS: extra node flags for the app, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to see where its time goes.
  const nodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, APP_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const keep = (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) appLog.push(line);
    if (appLog.length > 400) appLog = appLog.slice(-200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  onCleanup('app', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM'); // the app stops its embedded PostgreSQL on SIGTERM
    const stopped = await Promise.race([exited.then(() => true), delay(20_000).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  });

  const base = `http://127.0.0.1:${port}`;
  const deadline = now() + CONFIG.startupTimeoutMs;
  let early = null;
  void exited.then((status) => (early = status));
  for (;;) {
    if (early) throw new Error(`the app exited during startup (code ${early.code}, signal ${early.signal})`);
    if (now() > deadline) throw new Error(`the app was not healthy within ${CONFIG.startupTimeoutMs} ms`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    await delay(250);
  }
  const postgres = embeddedPostgres(dataDir);
  if (!postgres || !Number.isInteger(postgres.port))
    throw new Error('could not read the embedded PostgreSQL port');
  return {
    base,
    pid: child.pid,
    postmasterPid: postgres.pid,
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${postgres.port}/switchboard`,
  };
}

async function startBaseline(databaseUrl) {
  const child = fork(join(BENCH_DIR, 'baseline-server.mjs'), [], {
    env: { ...process.env, BASELINE_DATABASE_URL: databaseUrl, BASELINE_POOL_SIZE: String(APP_POOL_SIZE) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  onCleanup('baseline server', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
    if (!stopped) child.kill('SIGKILL');
  });
  const { port } = await withTimeout(
    new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`baseline server exited (code ${code})`)));
    }),
    15_000,
    'baseline server start',
  );
  return { url: `http://127.0.0.1:${port}`, pid: child.pid };
}

// ---------------------------------------------------------------------------------------------------
// Talking to the app.

function apiClient(base) {
  const session = { token: null, companyId: null };
  async function call(method, path, body, expectStatus) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (session.token) headers.authorization = `Bearer ${session.token}`;
    if (session.companyId) headers['x-company-id'] = session.companyId;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
    });
    const text = await res.text();
    if (expectStatus && res.status !== expectStatus) {
      throw new Error(
        `${method} ${path} answered ${res.status} (expected ${expectStatus}): ${text.slice(0, 300)}`,
      );
    }
    return text ? JSON.parse(text) : null;
  }
  return { session, call };
}

// ---------------------------------------------------------------------------------------------------
// Output.

function fmt(x) {
  if (!Number.isFinite(x)) return '-';
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function table(headers, rows) {
  const cells = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r) =>
    r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('   ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('   '), ...rows.map(line)].join('\n');
}

function ratio(a, b) {
  return Math.round((a / b) * 100) / 100;
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  buildIfMissing();
  const overall = setTimeout(
    () =>
      void failAndExit(
        new Error(`overall timeout: the bench took longer than ${CONFIG.overallTimeoutMs} ms`),
      ),
    CONFIG.overallTimeoutMs,
  );
  onCleanup('overall timer', () => clearTimeout(overall));

  console.log(
    `Switchboard bench — ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`,
  );
  const webhook = await startWebhook();
  const startedAt = now();
  const app = await startApp(webhook.hostPort);
  appBase = app.base;
  console.log(`  app healthy at ${app.base} after ${Math.round(now() - startedAt)} ms (embedded PostgreSQL)`);

  // A user, an agent on the instant webhook, a socket, the chats.
  const api = apiClient(app.base);
  const registered = await api.call(
    'POST',
    '/api/auth/register',
    {
      email: 'bench@example.com',
      password: 'bench-password-1',
      fullName: 'Bench User',
      companyName: 'Bench Co',
    },
    201,
  );
  api.session.token = registered.accessToken;
  const me = await api.call('GET', '/api/me', undefined, 200);
  api.session.companyId = me.companies[0].id;
  const userId = me.user.id;
  const agent = await api.call('POST', '/api/agents', { name: 'Bench agent', webhook: webhook.url }, 201);
  const newChat = async (title) =>
    (await api.call('POST', '/api/chats', { agentId: agent.id, title }, 201)).id;
  const sequentialChat = await newChat('sequential');
  const concurrentChats = [];
  for (let i = 0; i < CONFIG.concurrentChats; i++) concurrentChats.push(await newChat(`concurrent ${i}`));

  const appSocket = await connectSocket(app.base, { token: api.session.token });
  const appReplies = replyRouter(appSocket, ['agent.reply_failed']);
  let postLatencies = null; // POST → 201 alone, collected during measured runs
  const sendToApp = async (chatId, i) => {
    const reply = appReplies.wait(chatId, CONFIG.replyTimeoutMs);
    const started = now();
    let res;
    try {
      res = await fetch(`${app.base}/api/chats/${chatId}/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${api.session.token}`,
          'x-company-id': api.session.companyId,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ content: `bench message ${i}` }),
        signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
      });
      const text = await res.text();
      if (res.status !== 201)
        throw new Error(`POST /api/chats/:id/messages answered ${res.status}: ${text.slice(0, 300)}`);
    } catch (error) {
      appReplies.cancel(chatId);
      await reply.catch(() => undefined);
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new Error(`POST /api/chats/:id/messages: no answer within ${CONFIG.requestTimeoutMs} ms`, {
          cause: error,
        });
      }
      throw error;
    }
    postLatencies?.push(now() - started);
    return (await reply) - started;
  };

  // Baseline: the same shapes against a bare Socket.IO server doing one INSERT per message.
  const db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  onCleanup('pg client', () => db.end());
  describeDatabase = async () => {
    const { rows } = await db.query(
      `SELECT state, wait_event_type, wait_event, count(*)::int AS connections,
              round(max(extract(epoch FROM now() - state_change)))::int AS longest_s, min(left(query, 90)) AS query
       FROM pg_stat_activity WHERE datname = 'switchboard' AND pid <> pg_backend_pid()
       GROUP BY 1, 2, 3 ORDER BY 4 DESC`,
    );
    return rows.map((r) => ({ ...r, query: r.query.replace(/\s+/g, ' ') }));
  };
  await db.query(
    'CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, content text, created_at timestamptz DEFAULT now())',
  );
  const baselineServer = await startBaseline(app.databaseUrl);
  const baselineSocket = await connectSocket(baselineServer.url, {});
  const baselineReplies = replyRouter(baselineSocket, ['message.failed']);
  const sendToBaseline = async (chatId, i) => {
    const reply = baselineReplies.wait(chatId, CONFIG.replyTimeoutMs);
    const started = now();
    baselineSocket.emit('message', { chatId, content: `bench message ${i}` });
    return (await reply) - started;
  };

  console.log('Message round trip (send → agent reply event on the socket):');
  let collected = [];
  report.roundTrip = {};
  await measureRoundTrips(
    [
      {
        name: 'baseline',
        send: sendToBaseline,
        sequentialChat: 'baseline-sequential',
        concurrentChats: concurrentChats.map((_, i) => `baseline-${i}`),
        probe: cpuProbe(baselineServer.pid, app.postmasterPid),
      },
      {
        name: 'switchboard',
        send: sendToApp,
        sequentialChat,
        concurrentChats,
        probe: cpuProbe(app.pid, app.postmasterPid, {
          begin: () => (postLatencies = collected),
          end: () => (postLatencies = null),
          take() {
            const post = summarize(collected);
            collected = [];
            return { postOnly: { p50: post.p50, p90: post.p90, p99: post.p99, mean: post.mean } };
          },
        }),
      },
    ],
    report.roundTrip,
  );
  const { baseline, switchboard } = report.roundTrip;

  // History: one chat of 10,000 messages, one of 100, one INSERT each; time the first page (opening a chat).
  console.log('History: first page (limit 50) of a 10,000-message chat vs a 100-message chat');
  const { bigChat, smallChat, requests, warmup, pageSize } = CONFIG.history;
  const bigChatId = await newChat('history 10k');
  const smallChatId = await newChat('history 100');
  const fill = async (chatId, count) => {
    const started = now();
    await db.query(
      `INSERT INTO messages (chat_id, sender_id, sender_type, content)
       SELECT $1, $2, 'user', 'history message ' || g FROM generate_series(1, $3::int) AS g`,
      [chatId, userId, count],
    );
    return Math.round(now() - started);
  };
  const bigInsertMs = await fill(bigChatId, bigChat);
  const smallInsertMs = await fill(smallChatId, smallChat);
  // Statistics as autovacuum would leave them, so the planner sees the table as it is.
  await db.query('ANALYZE messages');
  const pageOf = async (chatId) => {
    const started = now();
    const page = await api.call('GET', `/api/chats/${chatId}/messages?limit=${pageSize}`, undefined, 200);
    const ms = now() - started;
    if (page.messages.length !== pageSize || page.hasMore !== true) {
      throw new Error(`unexpected page: ${page.messages.length} messages, hasMore ${page.hasMore}`);
    }
    return ms;
  };
  for (let i = 0; i < warmup; i++) {
    await pageOf(smallChatId);
    await pageOf(bigChatId);
  }
  const smallTimes = [];
  const bigTimes = [];
  // Interleaved, so drift (GC, autovacuum, a noisy neighbour) hits both alike.
  for (let i = 0; i < requests; i++) {
    smallTimes.push(await pageOf(smallChatId));
    bigTimes.push(await pageOf(bigChatId));
  }
  // The ratio only means something if the big chat's page comes from the index, not from a scan and a
  // sort that happen to be cheap at this size: show the plan of the app's first-page query.
  const explainFirstPage = async (chatId) => {
    const { rows } = await db.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT m.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type,
         m.content, m.is_voice_message, m.created_at
       FROM messages m WHERE m.chat_id = $1 AND ($2::bigint IS NULL OR m.seq < $2::bigint)
       ORDER BY m.seq DESC LIMIT $3`,
      [chatId, null, pageSize + 1],
    );
    const root = rows[0]['QUERY PLAN'][0];
    const steps = [];
    for (let node = root.Plan; node; node = node.Plans?.[0]) {
      steps.push(node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type']);
    }
    return { plan: steps.join(' > '), executionMs: root['Execution Time'] };
  };
  const history = {
    small: { ...summarize(smallTimes), query: await explainFirstPage(smallChatId) },
    big: { ...summarize(bigTimes), query: await explainFirstPage(bigChatId) },
    bigInsertMs,
    smallInsertMs,
  };

  // Report.
  const rows = [
    ['sequential p50 (ms)', baseline.sequential.p50, switchboard.sequential.p50],
    ['sequential p90 (ms)', baseline.sequential.p90, switchboard.sequential.p90],
    ['sequential p99 (ms)', baseline.sequential.p99, switchboard.sequential.p99],
    ['sequential mean (ms)', baseline.sequential.mean, switchboard.sequential.mean],
    ['sequential msgs/s', baseline.sequential.perSecond, switchboard.sequential.perSecond],
    [
      `concurrent ${CONFIG.concurrentChats}×${CONFIG.messagesPerChat} p50 (ms)`,
      baseline.concurrent.p50,
      switchboard.concurrent.p50,
    ],
    [
      `concurrent ${CONFIG.concurrentChats}×${CONFIG.messagesPerChat} p99 (ms)`,
      baseline.concurrent.p99,
      switchboard.concurrent.p99,
    ],
    [
      `concurrent ${CONFIG.concurrentChats}×${CONFIG.messagesPerChat} msgs/s`,
      baseline.concurrent.perSecond,
      switchboard.concurrent.perSecond,
    ],
  ].map(([metric, b, s]) => ({ metric, baseline: b, switchboard: s, ratio: ratio(s, b) }));
  const historyRows = [
    ['first page p50 (ms)', history.small.p50, history.big.p50],
    ['first page p90 (ms)', history.small.p90, history.big.p90],
    ['first page p99 (ms)', history.small.p99, history.big.p99],
    ['first page mean (ms)', history.small.mean, history.big.mean],
  ].map(([metric, small, big]) => ({ metric, small, big, ratio: ratio(big, small) }));

  console.log(
    '\nMessage round trip: ratio = switchboard / baseline (latency: >1 is slower; msgs/s: <1 is slower)',
  );
  console.log(
    table(
      ['metric', 'baseline', 'switchboard', 'ratio'],
      rows.map((r) => [r.metric, fmt(r.baseline), fmt(r.switchboard), `${fmt(r.ratio)}x`]),
    ),
  );
  console.log(
    '\nWhere the time goes (switchboard): POST /messages → 201 alone (message stored, reply queued), ms',
  );
  console.log(
    table(
      ['run', 'p50', 'p90', 'p99', 'mean'],
      ['sequential', 'concurrent'].map((run) => {
        const post = switchboard[run].postOnly;
        return [run, fmt(post.p50), fmt(post.p90), fmt(post.p99), fmt(post.mean)];
      }),
    ),
  );
  console.log(
    '\nCPU ms per message (server = app or baseline process; client = this process, incl. the webhook)',
  );
  console.log(
    table(
      ['run', 'server', 'postgres', 'client', 'total'],
      [
        ['baseline', baseline],
        ['switchboard', switchboard],
      ].flatMap(([name, result]) =>
        ['sequential', 'concurrent'].map((run) => {
          const cpu = result[run].cpuMsPerMessage;
          if (!cpu) return [`${name} ${run}`, '-', '-', '-', '-'];
          return [
            `${name} ${run}`,
            fmt(cpu.server),
            fmt(cpu.postgres),
            fmt(cpu.client),
            fmt(cpu.server + cpu.postgres + cpu.client),
          ];
        }),
      ),
    ),
  );
  console.log(
    `\nHistory: ratio = ${bigChat.toLocaleString('en')}-message chat / ${smallChat}-message chat (≈1 is the claim)`,
  );
  console.log(
    table(
      ['metric', `${smallChat} msgs`, `${bigChat.toLocaleString('en')} msgs`, 'ratio'],
      historyRows.map((r) => [r.metric, fmt(r.small), fmt(r.big), `${fmt(r.ratio)}x`]),
    ),
  );
  for (const [name, result] of [
    [`${smallChat} msgs`, history.small],
    [`${bigChat.toLocaleString('en')} msgs`, history.big],
  ]) {
    console.log(`  ${name}: plan ${result.query.plan}, ${fmt(result.query.executionMs)} ms in PostgreSQL`);
  }
  console.log(
    `  (one-statement insert of ${bigChat} messages: ${bigInsertMs} ms; of ${smallChat}: ${smallInsertMs} ms)`,
  );

  Object.assign(report, { status: 'ok', webhookCalls: webhook.calls() });
  report.roundTrip.table = rows;
  report.history = { ...history, table: historyRows };
  writeReport();
  console.log('\nwritten to bench/results/latest.json');
}

main().then(
  () => cleanup().then(() => process.exit(0)),
  (error) => failAndExit(error),
);
