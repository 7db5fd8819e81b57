import type { Pool, QueryResultRow } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';

/**
 * Runs one of the message path's statements as a named prepared statement on the app's pool (TypeORM's
 * own, so the pool size and settings are the same): each connection parses and plans it once, not on
 * every call, which was most of PostgreSQL's time per message in the benchmark (issue 13). For fixed
 * statement texts only: `name` must always come with the same `text`. A failure is a QueryFailedError,
 * as TypeORM's query() throws, so the error filter and the outage checks read it the same way.
 */
export async function preparedQuery<T extends QueryResultRow>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  try {
    return (await pool.query<T>({ name, text, values })).rows;
  } catch (error) {
    throw new QueryFailedError(text, values, error as Error);
  }
}
