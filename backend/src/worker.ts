import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';

/**
 * Entry point of the separate job workers of the distributed shape. Jobs reach separate workers only
 * through Redis (BullMQ); without REDIS_URL the api runs every job in-process, so there is nothing for a
 * worker to do.
 */
function main(): number {
  const logger = new Logger('Worker');
  const config = loadConfig();
  if (!config.redisUrl) {
    logger.error('REDIS_URL is not set: jobs run inside the api process (PROCESS_ROLE=all). Nothing to do here.');
    return 1;
  }
  logger.error('The BullMQ worker arrives with the live-chat work; until then the api runs every job in-process.');
  return 1;
}

process.exit(main());
