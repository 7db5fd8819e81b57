import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { startEmbeddedPostgres } from './database/embedded-postgres';
import { createApp } from './bootstrap';
import { closeWithinLimitAndExit, drainAndClose } from './common/graceful-shutdown';
import { createLogger, useJsonLogs } from './logging/logger';
import { exitOnStartupError } from './logging/startup-error';
import { keepRunningOnStrayRejections, startWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.processRole === 'worker') return startWorker();
  const root = createLogger(config.logLevel);
  useJsonLogs(root);
  const logger = new Logger('Switchboard');
  keepRunningOnStrayRejections();
  let databaseUrl = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | null = null;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres(config.dataDir);
    databaseUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const app = await createApp({ ...config, databaseUrl }, { logger: root });
  const shutdown = async (signal: string): Promise<void> => {
    logger.log(
      `${signal}: draining (no new connections; finishing requests in flight), then shutting down (25 s at most)`,
    );
    await closeWithinLimitAndExit(logger, async () => {
      await drainAndClose(app);
      if (stopEmbedded) await stopEmbedded();
    });
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  if (config.host) await app.listen(config.port, config.host);
  else await app.listen(config.port);
  logger.log(`Switchboard is running at ${config.appOrigin} (API docs: ${config.appOrigin}/api/docs)`);
}

main().catch(exitOnStartupError);
