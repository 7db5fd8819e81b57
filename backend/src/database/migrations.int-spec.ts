import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createFreshDatabase } from '../../test/app.test-util';
import { dataSourceOptions } from './data-source-options';
import { MIGRATION_LOCK, runMigrations } from './migrate';
import { MIGRATIONS } from './migrations';

describe('migrations', () => {
  it('build exactly the schema the entities describe, and can be undone', async () => {
    const db = await createFreshDatabase();
    const dataSource = new DataSource(dataSourceOptions(db.url));
    try {
      await runMigrations(db.url);
      await runMigrations(db.url); // idempotent: a second node starting finds nothing to do
      await dataSource.initialize();
      const diff = await dataSource.driver.createSchemaBuilder().log();
      expect(diff.upQueries.map((q) => q.query)).toEqual([]);
      for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
      const tables = (await dataSource.query(
        // TypeORM's service tables: the runner (re)creates typeorm_metadata, with entities having a
        // generated column (messages.search_vector), as it does its migrations table.
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'
         AND table_name NOT IN ('migrations', 'typeorm_metadata')`,
      )) as unknown[];
      expect(tables).toEqual([]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await db.drop();
    }
  });

  it('start without waiting on an up-to-date database, and build an index left invalid again', async () => {
    const db = await createFreshDatabase();
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    const invalidIndexes = async () =>
      (
        await holder.query<{ name: string }>(
          'SELECT indexrelid::regclass::text AS name FROM pg_index WHERE NOT indisvalid',
        )
      ).rows.map((r) => r.name);
    try {
      await runMigrations(db.url);
      // Another process holds the migration lock: a node finding nothing to do does not wait for it.
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await runMigrations(db.url);
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);

      // As a concurrent build cut off halfway leaves it.
      await holder.query(
        `UPDATE pg_index SET indisvalid = false WHERE indexrelid = '"IDX_messages_search"'::regclass`,
      );
      expect(await invalidIndexes()).toEqual(['"IDX_messages_search"']);
      await runMigrations(db.url);
      expect(await invalidIndexes()).toEqual([]);
      const rebuilt = await holder.query(
        `SELECT indexdef FROM pg_indexes WHERE indexname = 'IDX_messages_search'`,
      );
      expect(rebuilt.rows).toEqual([
        { indexdef: 'CREATE INDEX "IDX_messages_search" ON public.messages USING gin (search_vector)' },
      ]);
    } finally {
      await holder.end();
      await db.drop();
    }
  });
});
