/**
 * `insights.tick` (to a company's managers: its Insights counters moved) and the admin resync reach an
 * open Insights page through here, so the page reads its numbers again without polling. Tiny on
 * purpose: it is in the app's first chunk, the page is not.
 */
type Listener = (companyId: string | null) => void;

const listeners = new Set<Listener>();

/** The page listens while it is open; returns the unsubscribe. */
export function onInsightsTick(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** A company's counters moved (null: anything may have, after a reconnect). */
export function notifyInsightsTick(companyId: string | null): void {
  for (const listener of listeners) listener(companyId);
}
