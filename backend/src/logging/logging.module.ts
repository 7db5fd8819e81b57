import { type DynamicModule, Module } from '@nestjs/common';
import type { RootLogger } from './logger';

/** The application's root pino logger, for what runs outside a request (job contexts derive from it). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Module({})
export class LoggingModule {
  static forRoot(root: RootLogger): DynamicModule {
    return {
      module: LoggingModule,
      global: true,
      providers: [{ provide: ROOT_LOGGER, useValue: root }],
      exports: [ROOT_LOGGER],
    };
  }
}

@Module({})
class LoggedApplication {}

/** An application's root module with its logger beside it (api and worker alike). */
export function withLogging(root: DynamicModule, logger: RootLogger): DynamicModule {
  return { module: LoggedApplication, imports: [LoggingModule.forRoot(logger), root] };
}
