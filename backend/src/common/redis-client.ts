import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { settlesWithin } from './settles-within';

const logger = new Logger('Redis');

/** Reconnects forever: 100 ms, 200 ms, ... at most 3 s between tries, whatever the outage's length. */
export function reconnectDelay(attempt: number): number {
  return Math.min(100 * attempt, 3000);
}

/**
 * Every Redis connection of the app. A Redis outage of any length must not end a process: ioredis
 * emits 'error' on every failed reconnect (an EventEmitter 'error' with no listener throws), so each
 * client logs the outage once, and when it is over, and keeps reconnecting. What a command does while
 * Redis is away is the caller's choice: `maxRetriesPerRequest: null` waits for it to come back (socket
 * fan-out, BullMQ workers), `enableOfflineQueue: false` fails at once (a request that should answer 503).
 */
export function createRedisClient(url: string, name: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, { retryStrategy: reconnectDelay, ...options });
  watch(client, name);
  return client;
}

/** Outage logging for a client made elsewhere (`duplicate()`). */
export function watch(client: Redis, name: string): Redis {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`${name}: ${error.message || 'connection lost'}; reconnecting until Redis is back`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log(`${name}: connected again`);
  });
  return client;
}

/**
 * Closes a client at shutdown without waiting for Redis to come back: `quit()` is a command like any
 * other, queued until Redis answers (for ever on a `maxRetriesPerRequest: null` client). Connected: it
 * quits politely (pending replies first), for at most `limitMs`; away: it just drops the connection.
 */
export async function closeRedisClient(client: Redis | null | undefined, limitMs = 2000): Promise<void> {
  if (!client || client.status === 'end') return;
  if (client.status === 'ready' && (await settlesWithin(client.quit(), limitMs))) return;
  client.disconnect();
}
