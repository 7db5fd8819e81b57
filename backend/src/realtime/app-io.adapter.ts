import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import {
  closeRedisClient,
  createRedisClient,
  dropRedisClient,
  logFailedPublishes,
} from '../common/redis-client';
import { settlesWithin } from '../common/settles-within';
import type { Server, ServerOptions } from 'socket.io';

/**
 * With REDIS_URL, every api node's Socket.IO server shares rooms through Redis. No connection state
 * recovery, with or without it: Socket.IO's restores a socket's old rooms and sends its missed packets
 * while the socket is being made, before any middleware runs, so a session revoked or a membership
 * ended while the socket was away would still get them. A reconnecting
 * client is authenticated and given the rooms of its memberships as they are now, then catches up
 * from the database (the client resyncs every topic after a reconnect that did not recover).
 */
export class AppIoAdapter extends IoAdapter {
  private redis: Redis[] = [];

  constructor(
    app: INestApplicationContext,
    private readonly redisUrl: string | undefined,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, {
      ...options,
      maxHttpBufferSize: 64 * 1024,
    } as ServerOptions) as Server;
    if (this.redisUrl) {
      // Publishing waits for Redis to come back (maxRetriesPerRequest: null): the adapter's publish()
      // has no catch, and a rejected one used to end the process after ~10 s of outage.
      // Auto-pipelined: the events of one moment (a message and its typing indicator) go in one write.
      const pub = logFailedPublishes(
        createRedisClient(this.redisUrl, 'socket.io publisher', {
          maxRetriesPerRequest: null,
          enableAutoPipelining: true,
        }),
        'socket.io publisher',
      );
      const sub = createRedisClient(this.redisUrl, 'socket.io subscriber', { maxRetriesPerRequest: null });
      this.redis = [pub, sub];
      server.adapter(createAdapter(pub, sub));
      resyncAfterOutage(server, sub);
    }
    return server;
  }

  /**
   * The gateway takes no messages from clients, yet Nest's adapter would still build each socket a
   * shared `disconnect` observable (kept in a WeakMap for the socket's life: a few hundred bytes each).
   */
  override bindMessageHandlers(...args: Parameters<IoAdapter['bindMessageHandlers']>): void {
    if (args[1].length === 0) return;
    super.bindMessageHandlers(...args);
  }

  override async close(server: Server): Promise<void> {
    // A client away from Redis would keep the adapter's unsubscribe waiting for it: dropped first.
    for (const r of this.redis) if (r.status !== 'ready') dropRedisClient(r);
    await settlesWithin(super.close(server), 2000);
    await Promise.all(this.redis.map((r) => closeRedisClient(r)));
  }
}

/**
 * While this node's subscriber was away from Redis, events published by other nodes (and workers) went
 * past it. When it is back, its sockets are sent to reconnect: a reconnect without recovery makes the
 * client fetch what came after the last message it has (`after=<seq>`), so nothing stays missing.
 */
export function resyncAfterOutage(server: Server, subscriber: Redis): void {
  let lost = false;
  subscriber.on('close', () => {
    lost = true;
  });
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    // Closing the transport (not disconnect()) lets clients reconnect by themselves.
    for (const socket of server.sockets.sockets.values()) socket.conn.close();
  });
}
