import type { io as connect, Socket } from 'socket.io-client';
import type { ClientEventMap, ClientEventName, MarkedTopic, SyncMarkers } from '../api/contracts';
import { http } from '../api/httpClient';
import {
  ALL_TOPICS,
  catchUpPlan,
  offlineMarkers,
  setLive,
  takeLoadedWhileOffline,
  type SyncTopic,
} from './dispatch';
import type { CompanyEventName, ServerEvent } from './serverEvent';

type ServerToClientEvents = { [E in ClientEventName]: (payload: ClientEventMap[E]) => void };
export type RealtimeSocket = Socket<ServerToClientEvents, Record<string, never>>;

// A record, so that an event added to the map and not listened to here fails the type check.
const LISTENED: Record<CompanyEventName, true> = {
  'message.created': true,
  'message.updated': true,
  'message.versioned': true,
  'agent.typing': true,
  'message.delta': true,
  'agent.activity': true,
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
  'company.sso_required': true,
  'insights.tick': true,
  'platform.appearance_updated': true,
  'company.deleted': true,
};
export const COMPANY_EVENTS = Object.keys(LISTENED) as CompanyEventName[];

export interface RealtimeHandlers {
  onEvent: (event: ServerEvent) => void;
  /**
   * Events may have been missed: refetch these. After a reconnect the server could not recover, all of
   * them; on the first connection, what was loaded before it (the page's first data, usually) that has
   * no marker, and what the server says changed of what has one.
   */
  onResync: (topics: ReadonlySet<SyncTopic>) => void;
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
  let close: (() => void) | null = null;
  let closed = false;
  // Once the screen the session opened has painted (its first data came without the socket, and
  // loading the client and the resync on connecting must not compete with that render), when the
  // browser is idle. The client library (with engine.io) is loaded once signed in: signed-out screens
  // never need it.
  const cancelWait = afterPaint(() =>
    whenIdle(() => {
      import('socket.io-client').then(
        ({ io }) => {
          if (!closed) close = openSocket(io, handlers);
        },
        // A chunk that cannot load (offline right after sign-in) leaves the tab without live updates;
        // the browser would refuse the same import again, so the next page load tries.
        () => undefined,
      );
    }),
  );
  return () => {
    closed = true;
    cancelWait();
    close?.();
  };
}

/** Runs `task` when the browser is idle (within a second at most); returns the cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 1000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 50);
  return () => clearTimeout(id);
}

/**
 * Starts `starter` once the next frame has been painted (a task queued from that frame's animation
 * callback runs after it): the render that just committed is on screen first. Returns the cancel of
 * whatever is pending, the frame or what `starter` started.
 */
function afterPaint(starter: () => () => void): () => void {
  let cancel = () => {};
  const frame = requestAnimationFrame(() => {
    const timer = setTimeout(() => {
      cancel = starter();
    }, 0);
    cancel = () => clearTimeout(timer);
  });
  cancel = () => cancelAnimationFrame(frame);
  return () => cancel();
}

function openSocket(io: typeof connect, handlers: RealtimeHandlers): () => void {
  let connectedBefore = false;
  /** The markers the last handshake carried (until the first connection only). */
  let sentMarkers: SyncMarkers | null = null;
  /** The topics the server answers for in `sync.stale` once connected. */
  let answered = new Set<MarkedTopic>();
  const socket: RealtimeSocket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    autoConnect: false,
    auth: (cb) => {
      const token = http.getAccessToken() ?? '';
      // The versions of the page's first data, so that connecting reloads only what changed since.
      // Read on each attempt (a load may have ended meanwhile); after the first connection, never.
      sentMarkers = connectedBefore ? null : offlineMarkers();
      cb(sentMarkers ? { token, markers: sentMarkers } : { token });
    },
  });
  let stopped = false;
  let authRetries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  socket.on('connect', () => {
    authRetries = 0;
    setLive(true);
    // The server put this socket in its rooms before saying it is connected: loads from now on miss
    // nothing. Those made before (the page's first data, while the socket was not up) may have missed an
    // event (a reply stored meanwhile, say): what had a marker in the handshake the server checks and
    // names if it changed (sync.stale), the rest is reloaded now. After a reconnect, anything may have
    // been missed: everything is reloaded.
    const offline = takeLoadedWhileOffline();
    let topics: ReadonlySet<SyncTopic> = ALL_TOPICS;
    answered = new Set();
    if (!connectedBefore) ({ reloadNow: topics, answered } = catchUpPlan(offline, sentMarkers));
    connectedBefore = true;
    if (!socket.recovered && topics.size > 0) handlers.onResync(topics);
  });
  // Sent once, right after a first connection whose handshake had markers, naming what changed.
  socket.on('sync.stale', ({ topics }) => {
    const stale = new Set<SyncTopic>(topics.filter((topic) => answered.has(topic)));
    answered = new Set();
    if (stale.size > 0) handlers.onResync(stale);
  });
  socket.on('disconnect', () => setLive(false));

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
    setLive(false);
  };
}
