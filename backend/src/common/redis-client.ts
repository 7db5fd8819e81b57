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
  quietAfterClose(client);
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
  if (!client) return;
  markClosing(client);
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    // An auto-pipelined batch goes out on the next turn of the event loop: sent before QUIT, it is
    // answered (the last events of a shutdown are published); after it, it never would be.
    await new Promise((resolve) => setImmediate(resolve));
    if (await settlesWithin(client.quit(), limitMs)) return;
  }
  client.disconnect();
}

/** Drops the connection at once (what is pending is rejected, quietly where nobody waits for it). */
export function dropRedisClient(client: Redis): void {
  markClosing(client);
  client.disconnect();
}

type PendingCommand = { command: { promise: Promise<unknown> } };
type ClientQueues = {
  commandQueue: { toArray(): PendingCommand[] };
  offlineQueue: { toArray(): PendingCommand[] };
};

const closing = new WeakSet<Redis>();

/**
 * A client closed by hand rejects what it has pending, and anything sent to it later, with "Connection
 * is closed.". Some senders keep no handler on those commands: socket.io's Redis adapter and emitter
 * publish and unsubscribe without one, and ioredis re-subscribes a subscriber after a reconnect without
 * one. At shutdown each became a stray rejection (logged by a process, a failed suite in Jest). From the
 * moment a client is closed, its commands get a no-op handler as well: a caller that waits for one
 * still sees it rejected.
 */
function quietAfterClose(client: Redis): void {
  const send = client.sendCommand;
  client.sendCommand = function (this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    if (closing.has(client)) void args[0].promise.catch(() => undefined);
    return send.apply(this, args);
  } as Redis['sendCommand'];
}

function markClosing(client: Redis): void {
  closing.add(client);
  // Sent one by one from now on, through sendCommand: an auto-pipelined command's promise is not the
  // one sendCommand sees, so the no-op handler could not reach it.
  client.options.enableAutoPipelining = false;
  // The commands queued before: in flight (a QUIT may end the connection before their replies), or
  // waiting for a connection (an auto-pipelined batch goes out on the next tick, after a QUIT).
  const queues = client as unknown as ClientQueues;
  for (const item of [...queues.commandQueue.toArray(), ...queues.offlineQueue.toArray()]) {
    void item.command.promise.catch(() => undefined);
  }
}

/**
 * For a client given to code that publishes without a handler (socket.io's Redis adapter and emitter):
 * a publish that fails (the client closed at shutdown, or Redis away for longer than the client waits)
 * is logged instead of a stray rejection. A caller that waits for the publish still sees it fail.
 */
export function logFailedPublishes(client: Redis, name: string): Redis {
  const publish = client.publish.bind(client) as (...args: unknown[]) => Promise<number>;
  client.publish = ((...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch((error: Error) => logger.warn(`${name}: an event was not published (${error.message})`));
    return sent;
  }) as Redis['publish'];
  return client;
}
