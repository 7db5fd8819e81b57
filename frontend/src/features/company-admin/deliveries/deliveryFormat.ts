import type { DeliveryOutcome } from '@contracts/deliveries';
import { FAILED_DELIVERY_OUTCOMES } from '@contracts/deliveries';
import { FAILURE_LABELS } from '../insights/insightsFormat';

/** The outcomes as people read them. */
export const OUTCOME_LABELS: Record<DeliveryOutcome, string> = {
  delivered: 'Delivered',
  accepted: 'Awaiting callback',
  retrying: 'Retrying',
  stopped: 'Stopped by the user',
  ...FAILURE_LABELS,
};

export function isFailed(outcome: DeliveryOutcome): boolean {
  return (FAILED_DELIVERY_OUTCOMES as readonly string[]).includes(outcome);
}

/** A tag colour per outcome: green delivered, red failed, blue and grey in between. */
export function outcomeColor(outcome: DeliveryOutcome): string {
  if (outcome === 'delivered') return 'success';
  if (isFailed(outcome)) return 'error';
  if (outcome === 'accepted' || outcome === 'retrying') return 'processing';
  return 'default';
}

/** A kept body as people read it: JSON indented, anything else as it came. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** "Replayed 3 failed deliveries (1 could not be, 20 more over the limit)". */
export function bulkReplaySummary(result: { replayed: number; skipped: number; overCap: number }): string {
  const n = result.replayed;
  const parts = [`Replayed ${n} failed ${n === 1 ? 'delivery' : 'deliveries'}`];
  const more: string[] = [];
  if (result.skipped) more.push(`${result.skipped} could not be`);
  if (result.overCap) more.push(`${result.overCap} more over the limit: replay again for them`);
  return more.length ? `${parts[0]} (${more.join('; ')})` : parts[0];
}
