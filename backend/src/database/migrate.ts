import { Logger } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/** The advisory lock key every process takes to migrate. */
export const MIGRATION_LOCK = 7239114;
const LOCK_POLL_MS = 250;

/**
 * Applies pending migrations, and rebuilds any index left invalid, under an advisory lock, so that
 * several api and worker nodes starting at once do not race each other. `npm run migrate` (the CLI's
 * `migrate`) runs it once before a deployment's processes start; every process still runs it at start,
 * where it finds nothing to do and takes no lock.
 *
 * A process waiting for the lock must not hold a snapshot while it waits: a migration builds indexes
 * CONCURRENTLY, and such a build waits for every transaction older than it to end. A waiter blocked in
 * `SELECT pg_advisory_lock()` is such a transaction, waiting for the builder's lock: a deadlock
 * PostgreSQL cannot see (CONTRIBUTING.md#migrations-without-deadlock). So the lock is only ever *tried*,
 * one short statement at a time, outside any transaction, with a pause between tries.
 */
export async function runMigrations(url: string): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(url));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    if (!(await hasWork(dataSource, runner))) return;
    await takeMigrationLock(runner);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      await rebuildInvalidIndexes(runner);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

/** Pending migrations or an invalid index: read without the lock (a fully migrated database needs none). */
async function hasWork(dataSource: DataSource, runner: QueryRunner): Promise<boolean> {
  if ((await invalidIndexes(runner)).length) return true;
  const table = (await runner.query(`SELECT to_regclass('migrations') IS NOT NULL AS "exists"`)) as {
    exists: boolean;
  }[];
  if (!table[0].exists) return true;
  const done = new Set(
    ((await runner.query('SELECT name FROM migrations')) as { name: string }[]).map((row) => row.name),
  );
  return dataSource.migrations.some((migration) => !done.has(migration.name ?? migration.constructor.name));
}

async function takeMigrationLock(runner: QueryRunner): Promise<void> {
  for (;;) {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [
      MIGRATION_LOCK,
    ])) as {
      locked: boolean;
    }[];
    if (locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

interface InvalidIndex {
  name: string;
  definition: string;
}

/** Indexes of this database's schema that a cut-off concurrent build (or REINDEX) left invalid. */
async function invalidIndexes(runner: QueryRunner): Promise<InvalidIndex[]> {
  return (await runner.query(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name,
            pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT i.indisvalid AND n.nspname = current_schema()`,
  )) as InvalidIndex[];
}

/**
 * An invalid index is not used by queries but still slows every write: drop it and build it again,
 * concurrently (writes go on meanwhile). The `_ccnew`/`_ccold` leftovers of an interrupted
 * `REINDEX CONCURRENTLY` are copies of a valid index: dropped only.
 */
async function rebuildInvalidIndexes(runner: QueryRunner): Promise<void> {
  const logger = new Logger('Migrations');
  for (const index of await invalidIndexes(runner)) {
    logger.warn(`Index ${index.name} is invalid (an interrupted concurrent build): building it again`);
    try {
      await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index.name}`);
      if (/_cc(new|old)\d*"?$/.test(index.name)) continue;
      await runner.query(
        index.definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX CONCURRENTLY '),
      );
    } catch (error) {
      // The app runs without it (more slowly); the next start tries again.
      logger.error(
        `Could not build ${index.name} again: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
