import type { ClientEventMap, ClientEventName } from './client-events';

export const userRoom = (userId: string): string => `user:${userId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
/** Every member of a company (company.updated). */
export const companyRoom = (companyId: string): string => `company:${companyId}`;
/** A company's owners and admins (invitation and member events). */
export const companyManagersRoom = (companyId: string): string => `company:${companyId}:managers`;
/**
 * The sockets of sessions a company refuses its data to ("members must use SSO", a session not made through
 * its provider): instead of the company's rooms, and left out of the member's own events about the company
 * (`toUser` with the company's id), which their other, single sign-on, sessions cause. Empty but for them.
 */
export const ssoRefusedRoom = (companyId: string): string => `company:${companyId}:sso-refused`;

/** The company whose `ssoRefusedRoom` this is; null for any other room. */
export function companyOfRefusedRoom(room: string): string | null {
  const match = /^company:([^:]+):sso-refused$/.exec(room);
  return match ? match[1] : null;
}

/** Events to a user about one company carry its id: a session that company refuses is left out of them. */
export function refusedRoomOf(payload: unknown): string | null {
  const companyId = (payload as { companyId?: unknown }).companyId;
  return typeof companyId === 'string' ? ssoRefusedRoom(companyId) : null;
}

/**
 * How services push events, whatever process they run in: the api emits through its Socket.IO server
 * (fanned out by the Redis adapter), a worker through the Redis emitter. Call only after commit.
 */
export abstract class RealtimePublisher {
  abstract toUser<E extends ClientEventName>(userId: string, event: E, payload: ClientEventMap[E]): void;
  /** Tells a session's sockets it has ended, then disconnects them. */
  abstract endSession(sessionId: string, reason: string): void;
  /** One emit to several rooms: a socket in more than one of them gets the event once. */
  abstract toRoom<E extends ClientEventName>(
    rooms: string | string[],
    event: E,
    payload: ClientEventMap[E],
  ): void;
  /**
   * Every open socket, on every node: what changes for the whole platform (its appearance). A socket is
   * only ever open for a signed-in session, so this is everyone signed in, without a room that would hold
   * an entry for every socket.
   */
  abstract toEveryone<E extends ClientEventName>(event: E, payload: ClientEventMap[E]): void;
  /** Every open socket of the user (on any node) joins the rooms: a membership or role they just got. */
  abstract joinRooms(userId: string, rooms: string[]): void;
  /** Every open socket of the user (on any node) leaves the rooms: access ends at once. */
  abstract leaveRooms(userId: string, rooms: string[]): void;
  /** The open sockets in any of `targets` (on any node) leave, then join, rooms. */
  abstract moveSockets(targets: string[], rooms: { leave: string[]; join: string[] }): void;

  toCompany<E extends ClientEventName>(companyId: string, event: E, payload: ClientEventMap[E]): void {
    this.toRoom(companyRoom(companyId), event, payload);
  }

  toCompanyManagers<E extends ClientEventName>(
    companyId: string,
    event: E,
    payload: ClientEventMap[E],
  ): void {
    this.toRoom(companyManagersRoom(companyId), event, payload);
  }
}
