import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { testDatabaseUrl } from '../../test/app.test-util';
import { Database } from './database';
import { dataSourceOptions } from './data-source-options';

describe('Database.prepared (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let db: Database;
  let pool: Pool;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(testDatabaseUrl())).initialize();
    db = new Database(dataSource);
    pool = (dataSource.driver as PostgresDriver).master as Pool;
  });
  afterAll(() => dataSource.destroy());

  it('runs a named statement on the pool outside a transaction, and gives every connection back', async () => {
    const sql = 'SELECT $1::int + 1 AS n';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => db.prepared<{ n: number }>('test.plus-one', sql, [i])),
    );
    expect(answers.map((rows) => rows[0].n)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(pool.waitingCount).toBe(0);
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it("fails as a QueryFailedError with PostgreSQL's code, and the pool still answers", async () => {
    const failure = await db.prepared('test.cast', 'SELECT $1::int AS n', ['not a number']).catch((e) => e);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as { driverError?: { code?: string } }).driverError?.code).toBe('22P02');
    expect(pool.idleCount).toBe(pool.totalCount);
    await expect(db.prepared('test.cast', 'SELECT $1::int AS n', ['7'])).resolves.toEqual([{ n: 7 }]);
  });

  it("runs inside a transaction on the transaction's own connection", async () => {
    let seen: unknown;
    const outcome = await db
      .transaction(async (tx) => {
        await db.query('CREATE TEMP TABLE prepared_probe (v int) ON COMMIT DROP', [], tx);
        await db.query('INSERT INTO prepared_probe VALUES (5)', [], tx);
        // A temporary table exists on its own connection only: found, so the statement ran on it.
        seen = await db.prepared('test.probe', 'SELECT v FROM prepared_probe', [], tx);
        throw new Error('roll back');
      })
      .catch((e: Error) => e.message);
    expect(outcome).toBe('roll back');
    expect(seen).toEqual([{ v: 5 }]);
  });
});
