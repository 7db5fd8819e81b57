import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { closeWithinLimitAndExit } from './common/graceful-shutdown';
import { ConfigError, loadConfig } from './config/app-config';
import { runMigrations } from './database/migrate';
import { appLoggerFor, createLogger, useJsonLogs } from './logging/logger';
import { withLogging } from './logging/logging.module';
import { exitOnStartupError } from './logging/startup-error';
import { finishRunningJobs } from './queue/finish-running-jobs';
import { WorkerModule } from './worker.module';

/**
 * A separate job worker (`npm run worker`, or PROCESS_ROLE=worker): runs agent replies, mail and sweeps
 * from BullMQ. Needs DATABASE_URL and REDIS_URL: without Redis the api runs every job in-process.
 */
export async function startWorker(): Promise<void> {
  const config = loadConfig();
  const root = createLogger(config.logLevel);
  useJsonLogs(root);
  const logger = new Logger('Worker');
  keepRunningOnStrayRejections();
  if (!config.databaseUrl || !config.redisUrl) {
    throw new ConfigError(
      'A separate worker needs DATABASE_URL and REDIS_URL. Without them the api (PROCESS_ROLE=all) runs every job itself.',
    );
  }
  await runMigrations(config.databaseUrl);
  const app = await NestFactory.createApplicationContext(
    withLogging(
      WorkerModule.forRoot({ ...config, databaseUrl: config.databaseUrl, redisUrl: config.redisUrl }),
      root,
    ),
    { bufferLogs: true },
  );
  app.useLogger(appLoggerFor(root));
  const shutdown = async (signal: string) => {
    logger.log(`${signal}: finishing running jobs, then shutting down (25 s at most)`);
    await closeWithinLimitAndExit(logger, async () => {
      await finishRunningJobs(app);
      await app.close();
    });
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  logger.log('Worker started: waiting for jobs');
}

/**
 * A promise some library forgot to catch (a Redis command rejected during an outage, say) is logged,
 * not fatal: Node ends the process on an unhandled rejection, and one node going down takes its sockets
 * and in-flight requests with it. The known sources are handled where they arise; this is the net.
 */
export function keepRunningOnStrayRejections(): void {
  if (process.listenerCount('unhandledRejection') > 0) return;
  const logger = new Logger('Process');
  process.on('unhandledRejection', (reason: unknown) => {
    logger.error(
      `Unhandled rejection (kept running): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });
}

if (require.main === module) {
  startWorker().catch(exitOnStartupError);
}
