import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    uuidExtension: 'pgcrypto',
    logging: ['error'],
    // Running out of connections must be an error, not a hang.
    extra: { max: 20, connectionTimeoutMillis: 10_000 },
  };
}
