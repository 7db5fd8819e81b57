import type { ClientEventMap, ClientEventName } from './client-events';

export const userRoom = (userId: string): string => `user:${userId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
// Joined now, emitted to by the next issues (ARCHITECTURE.md): invitation and member events go to a
// company's managers, platform announcements to everyone signed in.
export const companyManagersRoom = (companyId: string): string => `company:${companyId}:managers`;
export const PLATFORM_ROOM = 'platform';

/**
 * How services push events, whatever process they run in: the api emits through its Socket.IO server
 * (fanned out by the Redis adapter), a worker through the Redis emitter. Call only after commit.
 */
export abstract class RealtimePublisher {
  abstract toUser<E extends ClientEventName>(userId: string, event: E, payload: ClientEventMap[E]): void;
  /** Tells a session's sockets it has ended, then disconnects them. */
  abstract endSession(sessionId: string, reason: string): void;
}
