import { Inject, Logger } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { AccessTokenService } from '../auth/access-token.service';
import { SessionsService } from '../auth/sessions.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { SyncMarkers } from '../contracts/realtime-events';
import { CatchUpService, parseSyncMarkers } from './catch-up';
import {
  companyManagersRoom,
  companyOfRefusedRoom,
  companyRoom,
  sessionRoom,
  ssoRefusedRoom,
  userRoom,
} from './realtime-publisher';
import { SocketServerRef } from './socket-server.ref';

/** A handshake refused on purpose: its message is what the client is told (it refreshes on 'unauthorized'). */
class HandshakeRefused extends Error {}

/** What a client is told when its handshake failed on our side (the database away, say): it retries. */
export const HANDSHAKE_UNAVAILABLE = 'server unavailable';

interface SocketData {
  userId: string;
  sessionId: string;
  rooms: string[];
  /** The versions of what the page loaded before connecting (first handshake only); null: none sent. */
  markers: SyncMarkers | null;
}

/**
 * The one Socket.IO gateway. Server → client only: a socket authenticates with its access token, joins
 * its user's and session's rooms, its companies' rooms and the managers' rooms of those it manages, and
 * receives what is emitted to them. Clients never choose rooms: besides these joins, only services move
 * sockets (RealtimePublisher.joinRooms/leaveRooms/moveSockets) when a membership, a role or single sign-on
 * changes.
 */
@WebSocketGateway({ serveClient: false })
export class RealtimeGateway implements OnGatewayInit<Server>, OnGatewayConnection<Socket> {
  private readonly logger = new Logger('Realtime');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ref: SocketServerRef,
    private readonly tokens: AccessTokenService,
    private readonly sessions: SessionsService,
    private readonly catchUp: CatchUpService,
  ) {}

  afterInit(server: Server): void {
    this.ref.server = server;
    server.use((socket, next) => {
      void this.authenticate(socket).then(
        (data) => {
          socket.data = data;
          next();
        },
        (error: Error) => {
          if (error instanceof HandshakeRefused) return next(error);
          // Our fault, not the client's: logged with the socket's id, and the client is told only that the
          // server is unavailable (no driver message such as an address reaches a browser).
          this.logger.error(
            `Socket ${socket.id} handshake failed (${socket.handshake.address}): ${error.message}`,
            error.stack,
          );
          next(new Error(HANDSHAKE_UNAVAILABLE));
        },
      );
    });
  }

  private async authenticate(socket: Socket): Promise<SocketData> {
    const origin = socket.handshake.headers.origin;
    // Browsers always send Origin across origins; a page elsewhere may not ride on our cookies or tokens.
    if (origin && origin !== this.config.appOrigin && !this.sameOrigin(origin, socket)) {
      throw new HandshakeRefused('origin not allowed');
    }
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const claims = typeof token === 'string' ? this.tokens.verify(token) : null;
    if (!claims) throw new HandshakeRefused('unauthorized');
    // Rooms are worked out before the client is told it is connected, so that joining them needs no
    // await afterwards and no event can fall between "connected" and "in the room".
    const rooms = await this.roomsNow(claims.sub, claims.sid);
    if (!rooms) throw new HandshakeRefused('unauthorized');
    return {
      userId: claims.sub,
      sessionId: claims.sid,
      rooms,
      markers: parseSyncMarkers(socket.handshake.auth),
    };
  }

  /**
   * The rooms a session's socket belongs in, from the database as it is now: its user's and session's,
   * and those of the companies the user is a member (and a manager) of. Null: the session has ended.
   */
  private async roomsNow(userId: string, sessionId: string): Promise<string[] | null> {
    // One query for the session and the memberships: every connection reads it twice (handshake, recheck).
    const memberships = await this.sessions.liveMemberships(sessionId, userId);
    if (!memberships) return null;
    const rooms = [userRoom(userId), sessionRoom(sessionId)];
    for (const m of memberships) {
      // A company that requires single sign-on from this session: none of its rooms, and out of the
      // member's own events about it.
      if (m.ssoRefused) {
        rooms.push(ssoRefusedRoom(m.companyId));
        continue;
      }
      rooms.push(companyRoom(m.companyId));
      if (m.role === 'owner' || m.role === 'admin') rooms.push(companyManagersRoom(m.companyId));
    }
    return rooms;
  }

  /** The page's origin is the one this socket connected to: same scheme and same host. */
  private sameOrigin(origin: string, socket: Socket): boolean {
    const host = socket.handshake.headers.host;
    const scheme = socket.handshake.secure ? 'https:' : 'http:';
    try {
      const url = new URL(origin);
      return !!host && url.host === host && url.protocol === scheme;
    } catch {
      return false;
    }
  }

  handleConnection(socket: Socket): void {
    const data = socket.data as SocketData;
    forgetHandshake(socket);
    // Only the recheck below needs these; from then on the adapter's rooms are the socket's state.
    socket.data = {};
    // Local joins are synchronous with both the in-memory and the Redis adapter.
    void socket.join(data.rooms);
    this.recheck(socket, data).catch((error: Error) => {
      this.logger.warn(`Socket ${socket.id} rooms not rechecked: ${error.message}`);
    });
  }

  /**
   * A removal, demotion or sign-out that committed between the handshake's reads and the joins above
   * sent its leave (or disconnect) to rooms this socket was not in yet. Read again now that it is in
   * them: anything that commits from here on finds the socket where its leave reaches it.
   *
   * Alongside, for a socket that brought markers, the catch-up (CatchUpService): read only now, after
   * the joins, so that a change either reaches the socket as an event or shows in these reads.
   */
  private async recheck(socket: Socket, data: SocketData): Promise<void> {
    const { markers } = data;
    const joined = new Set(data.rooms);
    // Never rejects: a version it could not read names its topic.
    const catchUp = markers
      ? this.catchUp.staleTopics(data.userId, markers, (id) => joined.has(companyRoom(id)))
      : Promise.resolve([]);
    const rooms = await this.roomsNow(data.userId, data.sessionId).catch(async (error: Error) => {
      // The rooms stay as the handshake found them; the client, waiting on the catch-up to reload
      // what changed, still gets it.
      const topics = await catchUp;
      if (topics.length && socket.connected) socket.emit('sync.stale', { topics });
      throw error;
    });
    const stale = await catchUp;
    if (!socket.connected) return;
    if (!rooms) {
      socket.emit('session.revoked', { reason: 'Your session has ended. Please sign in again.' });
      socket.disconnect(true);
      return;
    }
    const now = new Set(rooms);
    for (const room of data.rooms) if (!now.has(room)) void socket.leave(room);
    const added = rooms.filter((room) => !data.rooms.includes(room));
    if (added.length) void socket.join(added);
    // "Members must use SSO": the screen shows it from the start (or again, had it switched meanwhile).
    for (const room of [...rooms, ...data.rooms.filter((r) => !now.has(r))]) {
      const companyId = companyOfRefusedRoom(room);
      if (!companyId) continue;
      const required = now.has(room);
      if (required || now.has(companyRoom(companyId)))
        socket.emit('company.sso_required', { companyId, required });
    }
    // A company left meanwhile is not answered for (its own event tells the client).
    const left = markers?.chat && !now.has(companyRoom(markers.chat.companyId));
    const topics = left ? stale.filter((topic) => topic !== 'chat') : stale;
    if (topics.length) socket.emit('sync.stale', { topics });
  }
}

/**
 * Everything the handshake was needed for (origin, token, sync markers) has been read by the time the
 * socket connects; Engine.IO would keep the HTTP request it came with (its parser state, socket and
 * headers: a few kB) for the socket's whole life, and Socket.IO the headers and the access token. Let
 * them go, as Socket.IO's memory guide suggests: at 10,000 idle sockets that is tens of MB.
 */
function forgetHandshake(socket: Socket): void {
  (socket.conn as { request: unknown }).request = null;
  socket.handshake.headers = {};
  socket.handshake.auth = {};
}
