import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient, logFailedPublishes } from '../common/redis-client';
import type { ClientEventMap, ClientEventName } from './client-events';
import { RealtimePublisher, refusedRoomOf, sessionRoom, userRoom } from './realtime-publisher';
import { SocketServerRef } from './socket-server.ref';

/** In the api: emits through its own Socket.IO server (the Redis adapter fans out to other nodes). */
@Injectable()
export class GatewayPublisher extends RealtimePublisher {
  private readonly logger = new Logger('Realtime');

  constructor(private readonly ref: SocketServerRef) {
    super();
  }

  toUser<E extends ClientEventName>(userId: string, event: E, payload: ClientEventMap[E]): void {
    if (!this.ref.server) {
      this.logger.warn(`No socket server yet: ${event} for ${userId} not sent`);
      return;
    }
    const refused = refusedRoomOf(payload);
    const to = this.ref.server.to(userRoom(userId));
    (refused ? to.except(refused) : to).emit(event, payload);
  }

  endSession(sessionId: string, reason: string): void {
    const server = this.ref.server;
    if (!server) return;
    server.to(sessionRoom(sessionId)).emit('session.revoked', { reason });
    server.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  toRoom<E extends ClientEventName>(rooms: string | string[], event: E, payload: ClientEventMap[E]): void {
    if (!this.ref.server) {
      this.logger.warn(`No socket server yet: ${event} not sent`);
      return;
    }
    this.ref.server.to(rooms).emit(event, payload);
  }

  toEveryone<E extends ClientEventName>(event: E, payload: ClientEventMap[E]): void {
    if (!this.ref.server) {
      this.logger.warn(`No socket server yet: ${event} not sent`);
      return;
    }
    this.ref.server.emit(event, payload);
  }

  // With the Redis adapter, socketsJoin/socketsLeave reach the user's sockets on every api node.
  joinRooms(userId: string, rooms: string[]): void {
    if (rooms.length) this.ref.server?.in(userRoom(userId)).socketsJoin(rooms);
  }

  leaveRooms(userId: string, rooms: string[]): void {
    if (rooms.length) this.ref.server?.in(userRoom(userId)).socketsLeave(rooms);
  }

  moveSockets(targets: string[], rooms: { leave: string[]; join: string[] }): void {
    const server = this.ref.server;
    if (!server || !targets.length) return;
    if (rooms.leave.length) server.in(targets).socketsLeave(rooms.leave);
    if (rooms.join.length) server.in(targets).socketsJoin(rooms.join);
  }
}

/** In a worker (no Socket.IO server): publishes through Redis to every api node's sockets. */
export class RedisEmitterPublisher extends RealtimePublisher implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly emitter: Emitter;

  constructor(redisUrl: string) {
    super();
    // Auto-pipelined: a reply and the end of its typing indicator go to Redis in one write.
    this.redis = logFailedPublishes(
      createRedisClient(redisUrl, 'socket.io emitter', {
        maxRetriesPerRequest: null,
        enableAutoPipelining: true,
      }),
      'socket.io emitter',
    );
    this.emitter = new Emitter(this.redis);
  }

  toUser<E extends ClientEventName>(userId: string, event: E, payload: ClientEventMap[E]): void {
    const refused = refusedRoomOf(payload);
    const to = this.emitter.to(userRoom(userId));
    (refused ? to.except(refused) : to).emit(event, payload);
  }

  endSession(sessionId: string, reason: string): void {
    this.emitter.to(sessionRoom(sessionId)).emit('session.revoked', { reason });
    this.emitter.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  toRoom<E extends ClientEventName>(rooms: string | string[], event: E, payload: ClientEventMap[E]): void {
    this.emitter.to(rooms).emit(event, payload);
  }

  toEveryone<E extends ClientEventName>(event: E, payload: ClientEventMap[E]): void {
    this.emitter.emit(event, payload);
  }

  joinRooms(userId: string, rooms: string[]): void {
    if (rooms.length) this.emitter.in(userRoom(userId)).socketsJoin(rooms);
  }

  leaveRooms(userId: string, rooms: string[]): void {
    if (rooms.length) this.emitter.in(userRoom(userId)).socketsLeave(rooms);
  }

  moveSockets(targets: string[], rooms: { leave: string[]; join: string[] }): void {
    if (!targets.length) return;
    if (rooms.leave.length) this.emitter.in(targets).socketsLeave(rooms.leave);
    if (rooms.join.length) this.emitter.in(targets).socketsJoin(rooms.join);
  }

  async onModuleDestroy(): Promise<void> {
    await closeRedisClient(this.redis);
  }
}
