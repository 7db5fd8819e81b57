import { INSIGHT_FAILURE_KINDS, type InsightFailureKind } from '../contracts/insights';

/**
 * The fixed latency buckets of the Insights rollups: upper bounds in milliseconds, the last one open.
 * The rollup tables keep one count per bucket (an int array in this order), so p50/p95 over any range
 * are read from summed buckets, never from the messages. Changing them needs a migration (the trigger
 * function carries the same bounds).
 */
export const LATENCY_BUCKET_BOUNDS_MS = [
  250, 500, 1_000, 2_000, 3_000, 5_000, 8_000, 13_000, 20_000, 30_000, 60_000, 120_000, 300_000,
] as const;

/** One more than the bounds: the last bucket counts everything above the highest bound. */
export const LATENCY_BUCKETS = LATENCY_BUCKET_BOUNDS_MS.length + 1;

/**
 * Rows per (company, agent, hour): messages of different chats land on different shards (a hash of
 * the chat id), so simultaneous messages of one company do not queue on one row's lock.
 */
export const ROLLUP_SHARDS = 8;

/** Why a reply failed, as the rollups count it (messages.reply_failure). */
export const FAILURE_KINDS = INSIGHT_FAILURE_KINDS;
export type FailureKind = InsightFailureKind;

/**
 * The latency (ms) at quantile q of a bucketed histogram, interpolated linearly inside its bucket; the
 * open last bucket answers its lower bound. Null when the histogram is empty.
 */
export function quantileFromBuckets(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (!total) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i];
    if (!n) continue;
    if (seen + n >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BUCKET_BOUNDS_MS[i - 1];
      if (i >= LATENCY_BUCKET_BOUNDS_MS.length) return lower;
      const upper = LATENCY_BUCKET_BOUNDS_MS[i];
      return Math.round(lower + ((rank - seen) / n) * (upper - lower));
    }
    seen += n;
  }
  return LATENCY_BUCKET_BOUNDS_MS[LATENCY_BUCKET_BOUNDS_MS.length - 1];
}
