import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/**
 * Applies pending migrations under an advisory lock, so that several api and worker nodes starting at
 * once do not race each other.
 */
export async function runMigrations(url: string): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(url));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock(7239114)');
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(7239114)');
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
