import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../common/redis-client';
import type { Server, ServerOptions } from 'socket.io';

/**
 * With REDIS_URL, every api node's Socket.IO server shares rooms through Redis. Without it (one
 * process), the in-memory adapter also recovers a briefly disconnected socket's missed events.
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
      // A recovering socket goes through the handshake middleware again (skipMiddlewares: false), so a
      // session revoked while it was away does not get its missed events, nor any later one.
      ...(this.redisUrl
        ? {}
        : { connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false } }),
    } as ServerOptions) as Server;
    if (this.redisUrl) {
      // Publishing waits for Redis to come back (maxRetriesPerRequest: null): the adapter's publish()
      // has no catch, and a rejected one used to end the process after ~10 s of outage.
      const pub = createRedisClient(this.redisUrl, 'socket.io publisher', { maxRetriesPerRequest: null });
      const sub = createRedisClient(this.redisUrl, 'socket.io subscriber', { maxRetriesPerRequest: null });
      this.redis = [pub, sub];
      server.adapter(createAdapter(pub, sub));
      resyncAfterOutage(server, sub);
    }
    return server;
  }

  override async close(server: Server): Promise<void> {
    await super.close(server);
    await Promise.all(this.redis.map((r) => r.quit().catch(() => undefined)));
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
