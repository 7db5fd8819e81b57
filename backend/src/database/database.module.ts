import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options';
import { Database } from './database';

/** The connection pool and the one `Database` every repository runs its SQL through. */
@Module({})
export class DatabaseModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [TypeOrmModule.forRoot(dataSourceOptions(url))],
      providers: [Database],
      exports: [Database],
    };
  }
}
