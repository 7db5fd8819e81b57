import { io, type Socket } from 'socket.io-client';
import type { ClientEventMap, ClientEventName } from '../../api/contracts';
import { http } from '../../api/httpClient';
import type { CompanyEventName, ServerEvent } from './serverEvent';

type ServerToClientEvents = { [E in ClientEventName]: (payload: ClientEventMap[E]) => void };
export type RealtimeSocket = Socket<ServerToClientEvents, Record<string, never>>;

// A record, so that an event added to the map and not listened to here fails the type check.
const LISTENED: Record<CompanyEventName, true> = {
  'message.created': true,
  'agent.typing': true,
  'agent.reply_failed': true,
  'chat.created': true,
  'chat.updated': true,
  'chat.deleted': true,
  'agent.created': true,
  'agent.updated': true,
  'agent.deleted': true,
  'invitation.created': true,
  'invitation.updated': true,
  'invitation.deleted': true,
  'member.joined': true,
  'member.updated': true,
  'member.removed': true,
  'company.updated': true,
};
export const COMPANY_EVENTS = Object.keys(LISTENED) as CompanyEventName[];

export interface RealtimeHandlers {
  onEvent: (event: ServerEvent) => void;
  /** A reconnect the server could not recover (events may have been missed): refetch. */
  onResync: () => void;
  /** The server ended this session (log out elsewhere, password change). */
  onSessionRevoked: (reason: string) => void;
}

/** Refreshing the token and trying again stops after this many refusals in a row. */
const MAX_AUTH_RETRIES = 5;

/**
 * Opens the one Socket.IO connection of a signed-in tab; returns the function that closes it. The
 * handshake carries the current access token, read afresh on every (re)connect; a refusal
 * ('unauthorized': the token expired meanwhile) refreshes it through the http client and tries again.
 */
export function connectRealtime(handlers: RealtimeHandlers): () => void {
  const socket: RealtimeSocket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    autoConnect: false,
    auth: (cb) => cb({ token: http.getAccessToken() ?? '' }),
  });
  let stopped = false;
  let authRetries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  socket.on('connect', () => {
    authRetries = 0;
    // Also on the first connection: whatever happened between the page's fetches and this moment (a
    // reply stored meanwhile, say) reached no socket of this tab. A resync is safe to repeat.
    if (!socket.recovered) handlers.onResync();
  });

  socket.on('connect_error', (error) => {
    // Transport errors: socket.io keeps reconnecting by itself. A refusal by the server's middleware
    // does not reconnect (socket.active is false): refresh the token, then connect again.
    if (socket.active || stopped || authRetries >= MAX_AUTH_RETRIES) return;
    authRetries += 1;
    const reconnect = () => {
      if (!stopped) socket.connect();
    };
    if (error.message === 'unauthorized') {
      http.refresh().then(reconnect, () => {
        // A definite "no" ends the session in the http client (and so this socket); a network blip is retried.
        retryTimer = setTimeout(reconnect, 1000 * authRetries);
      });
    } else {
      retryTimer = setTimeout(reconnect, 1000 * authRetries);
    }
  });

  for (const name of COMPANY_EVENTS) {
    // TypeScript cannot correlate a union name with its payload: each listener gets its own event's
    // payload, and the casts only say so.
    socket.on(name, ((payload: ClientEventMap[typeof name]) =>
      handlers.onEvent({ name, payload } as ServerEvent)) as ServerToClientEvents[typeof name]);
  }
  socket.on('session.revoked', ({ reason }) => handlers.onSessionRevoked(reason));

  socket.connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    socket.removeAllListeners();
    socket.disconnect();
  };
}
