// The processes a run starts: a webhook that answers at once, the app as `npm start` runs it, and the
// baseline server. Each registers its own cleanup.
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { APP_ENTRY, APP_POOL_SIZE, BENCH_DIR, CONFIG, ROOT } from './config.mjs';
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

export async function startApp(webhookHostPort) {
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
    // The bench sends far more than a user's 60 messages a minute: raise the limits (the limiter still runs).
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '1000',
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
    for (const line of chunk.toString().split('\n')) if (line.trim()) diagnostics.appLog.push(line);
    if (diagnostics.appLog.length > 400) diagnostics.appLog = diagnostics.appLog.slice(-200);
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

export async function startBaseline(databaseUrl) {
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
