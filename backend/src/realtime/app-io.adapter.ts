import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
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
      const pub = new Redis(this.redisUrl);
      const sub = pub.duplicate();
      this.redis = [pub, sub];
      server.adapter(createAdapter(pub, sub));
    }
    return server;
  }

  override async close(server: Server): Promise<void> {
    await super.close(server);
    await Promise.all(this.redis.map((r) => r.quit().catch(() => undefined)));
  }
}
