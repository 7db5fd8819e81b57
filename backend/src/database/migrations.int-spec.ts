import { DataSource } from 'typeorm';
import { createFreshDatabase } from '../../test/app.test-util';
import { dataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';
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
});
