import { applyServerEvent } from './applyServerEvent';
import type { ServerEvent } from './serverEvent';

/** One log per request in flight: the events that arrived while it was. */
const inFlight = new Set<ServerEvent[]>();

/**
 * The one way a server event reaches the stores: applied at once, and recorded for every request in
 * flight, so that its answer (read before the event, perhaps) cannot undo it. Returns false when the
 * event was ignored (another company than the one on screen).
 */
export function dispatch(event: ServerEvent): boolean {
  for (const log of inFlight) log.push(event);
  return applyServerEvent(event);
}

/**
 * Runs a request whose answer puts server state in the stores (a list, a page, a saved chat or agent):
 * `apply` puts it there, then the events that came meanwhile are applied again, in the order they came.
 * An answer may be older than an event already shown; the event wins. Events are idempotent, and the
 * server sends one for every change, so the last one applied is the newest state.
 */
export async function fetchAndApply<T>(request: () => Promise<T>, apply: (answer: T) => void): Promise<T> {
  const log: ServerEvent[] = [];
  inFlight.add(log);
  try {
    const answer = await request();
    apply(answer);
    for (const event of log) applyServerEvent(event);
    return answer;
  } finally {
    inFlight.delete(log);
  }
}
