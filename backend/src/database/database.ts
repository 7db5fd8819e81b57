import { Injectable } from '@nestjs/common';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource, type EntityManager, QueryFailedError, type QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * A transaction's handle, as `Database.transaction` hands it to its callback: repository methods take it
 * as `tx` to run their statements inside that transaction (CONTRIBUTING.md#data-access). It is TypeORM's
 * EntityManager, so a test may also pass `DataSource.manager` (no transaction: each statement commits).
 */
export type Tx = EntityManager;

/**
 * The one way the code reaches PostgreSQL: parameterised SQL, in repositories only, on TypeORM's pool
 * (one pool, one configuration, for the app and the migrations).
 */
@Injectable()
export class Database {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` on one connection in one transaction: committed when it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * The rows of one statement (an UPDATE or DELETE ... RETURNING gives its rows too), inside `tx` when
   * given. A failure is TypeORM's QueryFailedError, which the error filter and the outage checks read.
   */
  async query<T>(sql: string, params: unknown[] = [], tx?: Tx): Promise<T[]> {
    return (await this.run(sql, params, tx)).records as T[];
  }

  /** How many rows a statement without RETURNING changed. */
  async execute(sql: string, params: unknown[] = [], tx?: Tx): Promise<number> {
    return (await this.run(sql, params, tx)).affected ?? 0;
  }

  /**
   * Runs one of the hot paths' statements as a named prepared statement: each connection parses and plans
   * it once, not on every call, which was most of PostgreSQL's time per message in the benchmark. For
   * fixed statement texts only: `name` must always come with the same `text`. Inside `tx`, on the
   * transaction's own connection; outside, on a connection of TypeORM's pool for this statement.
   */
  async prepared<T extends QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
    tx?: Tx,
  ): Promise<T[]> {
    try {
      if (tx?.queryRunner) {
        const client = (await tx.queryRunner.connect()) as PoolClient;
        return (await client.query<T>({ name, text, values })).rows;
      }
      // Outside a transaction, on TypeORM's pool itself (pg's Pool.query: a connection for the statement,
      // an error listener while it runs, released after): a query runner made and released for one
      // statement (its bookkeeping, listeners and events) was most of TypeORM's CPU per message.
      const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
      return (await pool.query<T>({ name, text, values })).rows;
    } catch (error) {
      throw new QueryFailedError(text, values, error as Error);
    }
  }

  /**
   * Runs `work` on one pooled connection of its own (outside any transaction) for what the query runner
   * cannot send: COPY streams (pg-copy-streams). `sql` is what a failure reports; a failure is a
   * QueryFailedError, like every other statement's.
   */
  async withConnection<T>(sql: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.withRunner(undefined, async (runner) => {
      const client = (await runner.connect()) as PoolClient;
      try {
        return await work(client);
      } catch (error) {
        throw new QueryFailedError(sql, [], error as Error);
      }
    });
  }

  /** Resolves when the database answers (the health checks). */
  async ping(): Promise<void> {
    await this.run('SELECT 1', []);
  }

  private run(sql: string, params: unknown[], tx?: Tx) {
    return this.withRunner(tx, (runner) => runner.query(sql, params, true));
  }

  /** The transaction's own runner, or one from the pool for this statement alone. */
  private async withRunner<T>(tx: Tx | undefined, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    if (tx?.queryRunner) return work(tx.queryRunner);
    const runner = this.dataSource.createQueryRunner();
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }
}
