// What the phases that run api nodes and workers of the build (distributed, callsInFlight) share: a
// database of their own on the machine's PostgreSQL and the environment every such process gets.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { APP_ENTRY } from './config.mjs';
import { onCleanup } from './lifecycle.mjs';
import { spawnNode } from './servers.mjs';
import { freePort } from './util.mjs';

/** A database of the phase's own on the machine's PostgreSQL (`serverUrl`), dropped at cleanup. */
export async function ownDatabase(serverUrl, label) {
  const name = `switchboard_bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  onCleanup(`${label} database`, async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The environment of api nodes and workers on the machine's PostgreSQL and Redis: a database, a BullMQ
 * prefix, a data directory and a JWT secret of the phase's own; the agent's host let through.
 */
export async function distributedEnv({ serverUrl, redisUrl, label, agentHostPort, rateLimitScale }) {
  const dataDir = mkdtempSync(join(os.tmpdir(), `switchboard-bench-${label}-`));
  onCleanup(`${label} data dir`, () => rmSync(dataDir, { recursive: true, force: true }));
  const env = { ...process.env };
  for (const name of ['PORT', 'APP_ORIGIN', 'PROCESS_ROLE', 'DEFAULT_AGENT_WEBHOOK', 'METRICS_PORT'])
    delete env[name];
  return Object.assign(env, {
    DATABASE_URL: await ownDatabase(serverUrl, label),
    REDIS_URL: redisUrl,
    BULLMQ_PREFIX: `bench${label}${process.pid}`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    DATA_DIR: dataDir,
    WEBHOOK_ALLOWED_HOSTS: agentHostPort,
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? rateLimitScale,
  });
}

/**
 * An api node (PROCESS_ROLE=api, or `role`) of the build with `env` (or of the build at `entry`), on a
 * free port: resolves once it is healthy.
 */
export async function spawnApiNode(env, label, entry = APP_ENTRY, role = 'api') {
  const port = await freePort();
  return spawnNode(
    entry,
    { ...env, PROCESS_ROLE: role, PORT: String(port), APP_ORIGIN: `http://127.0.0.1:${port}` },
    label,
    port,
  );
}
