import type { MarkedTopic, SyncMarkers } from '../api/contracts';
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
/**
 * Topics loaded while not live: an event between their answer and the connection went nowhere. With
 * the version the last load's answer came with (`marker`), the server can say whether anything changed
 * since; without one, the topic is reloaded once the socket is up. `load` tells the last load apart.
 */
const loadedWhileOffline = new Map<SyncTopic, { load: number; marker?: SyncMarkers }>();
let loads = 0;

/** Told by the socket when it connects (in its rooms) and disconnects. */
export function setLive(connected: boolean): void {
  live = connected;
}

/** The topics loaded while not live, with their markers, forgotten as they are handed over. */
export function takeLoadedWhileOffline(): Map<SyncTopic, SyncMarkers | undefined> {
  const topics = new Map([...loadedWhileOffline].map(([topic, { marker }]) => [topic, marker]));
  loadedWhileOffline.clear();
  return topics;
}

/** The markers of what was loaded while not live, for the socket's handshake; null: none. */
export function offlineMarkers(): SyncMarkers | null {
  const markers: SyncMarkers = {};
  for (const { marker } of loadedWhileOffline.values()) Object.assign(markers, marker);
  return Object.keys(markers).length ? markers : null;
}

/**
 * On a first connection, what to do with the topics loaded before it: those whose marker the handshake
 * carried (`sent`) are reloaded only if the server names them (`sync.stale`, `answered`); the others (no
 * marker, or a load after the handshake) are reloaded now, as every topic was before markers.
 */
export function catchUpPlan(
  loaded: ReadonlyMap<SyncTopic, SyncMarkers | undefined>,
  sent: SyncMarkers | null,
): { reloadNow: Set<SyncTopic>; answered: Set<MarkedTopic> } {
  const reloadNow = new Set<SyncTopic>();
  const answered = new Set<MarkedTopic>();
  for (const [topic, marker] of loaded) {
    const key = topic === 'admin' ? null : topic;
    const carried =
      key !== null &&
      !!marker &&
      !!sent &&
      key in marker &&
      key in sent &&
      JSON.stringify(marker[key]) === JSON.stringify(sent[key]);
    if (carried) answered.add(key);
    else reloadNow.add(topic);
  }
  return { reloadNow, answered };
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
  /**
   * A load that a resync repeats: read while the socket was not live, it is repeated once it is,
   * unless `marker` gives the answer's version (called after `apply`; null: nothing to mark, say
   * because the answer was not put on screen) and the server, asked on connecting, says it is current.
   */
  topic?: SyncTopic,
  marker?: (answer: T) => SyncMarkers | null,
): Promise<T> {
  const load = topic && !live ? ++loads : 0;
  if (topic && load) loadedWhileOffline.set(topic, { load });
  const log: ServerEvent[] = [];
  inFlight.add(log);
  try {
    const answer = await request();
    apply(answer);
    for (const event of log) applyEvent(event);
    const entry = topic ? loadedWhileOffline.get(topic) : undefined;
    // Only the topic's last load marks it: an earlier answer arriving late says nothing of the screen.
    if (entry && entry.load === load && marker) entry.marker = marker(answer) ?? undefined;
    return answer;
  } finally {
    inFlight.delete(log);
  }
}
