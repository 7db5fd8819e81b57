import type { ServerEvent } from './serverEvent';

/**
 * Puts one server event in the stores; false when it was ignored (another company than the one on
 * screen). The layer above hands it in at start: this module knows no store.
 */
export type EventHandler = (event: ServerEvent) => boolean;

/** Until the workspace starts no event can have arrived (the socket opens after it), and none applies. */
let applyEvent: EventHandler = () => false;

/** Called by the workspace when it starts: how every event, live or replayed, reaches the stores. */
export function startEventSync(handler: EventHandler): void {
  applyEvent = handler;
}

/** One log per request in flight: the events that arrived while it was. */
const inFlight = new Set<ServerEvent[]>();

/** What a resync reloads: the chat screen's lists and open chat, the admin lists, the appearance. */
export type SyncTopic = 'chat' | 'admin' | 'appearance';
export const ALL_TOPICS: ReadonlySet<SyncTopic> = new Set(['chat', 'admin', 'appearance']);

/** The socket is connected: every event from now on reaches `dispatch`. */
let live = false;
/** Topics loaded while not live: an event between their answer and the connection went nowhere. */
const loadedWhileOffline = new Set<SyncTopic>();

/** Told by the socket when it connects (in its rooms) and disconnects. */
export function setLive(connected: boolean): void {
  live = connected;
}

/** The topics loaded while not live, forgotten as they are handed over (the resync reloads them). */
export function takeLoadedWhileOffline(): Set<SyncTopic> {
  const topics = new Set(loadedWhileOffline);
  loadedWhileOffline.clear();
  return topics;
}

/**
 * The one way a server event reaches the stores: applied at once, and recorded for every request in
 * flight, so that its answer (read before the event, perhaps) cannot undo it. Returns false when the
 * event was ignored (another company than the one on screen).
 */
export function dispatch(event: ServerEvent): boolean {
  for (const log of inFlight) log.push(event);
  return applyEvent(event);
}

/**
 * Runs a request whose answer puts server state in the stores (a list, a page, a saved chat or agent):
 * `apply` puts it there, then the events that came meanwhile are applied again, in the order they came.
 * An answer may be older than an event already shown; the event wins. Events are idempotent, and the
 * server sends one for every change, so the last one applied is the newest state.
 */
export async function fetchAndApply<T>(
  request: () => Promise<T>,
  apply: (answer: T) => void,
  /** A load that a resync repeats: read while the socket was not live, it is repeated once it is. */
  topic?: SyncTopic,
): Promise<T> {
  if (topic && !live) loadedWhileOffline.add(topic);
  const log: ServerEvent[] = [];
  inFlight.add(log);
  try {
    const answer = await request();
    apply(answer);
    for (const event of log) applyEvent(event);
    return answer;
  } finally {
    inFlight.delete(log);
  }
}
