import type { InsightFailureKind, InsightsBucket, InsightsCounters } from '@contracts/insights';

/** The failure kinds as people read them, in the order the tables list them. */
export const FAILURE_LABELS: Record<InsightFailureKind, string> = {
  timeout: 'Timeout',
  http_status: 'HTTP status',
  malformed: 'Malformed answer',
  ssrf_refused: 'SSRF refusal',
  callback_expired: 'Callback expired',
  network: 'Network error',
  agent_error: 'Agent error',
  other: 'Other',
};

/** A duration in milliseconds as "850 ms", "1.2 s" or "2.5 min"; "—" for none. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** Thumbs up among the ratings, e.g. "75% (3 of 4)"; "—" with none. */
export function formatThumbs(counters: Pick<InsightsCounters, 'thumbsUp' | 'thumbsDown'>): string {
  const rated = counters.thumbsUp + counters.thumbsDown;
  if (!rated) return '—';
  return `${Math.round((100 * counters.thumbsUp) / rated)}% (${counters.thumbsUp} of ${rated})`;
}

/** The failures of some counters by kind, as "HTTP status 2, Timeout 1"; "None" without any. */
export function describeFailures(failures: InsightsCounters['failures']): string {
  const parts = (Object.keys(FAILURE_LABELS) as InsightFailureKind[])
    .filter((kind) => failures[kind] > 0)
    .map((kind) => `${FAILURE_LABELS[kind]} ${failures[kind]}`);
  return parts.length ? parts.join(', ') : 'None';
}

/**
 * A point of the series as its axis and table show it: an hour in the viewer's time zone (`timeZone`:
 * the browser's unless given), a day as the UTC day it counts (the rollups' days are UTC days, so a
 * day shown in local time would be the day before west of Greenwich).
 */
export function formatPeriod(at: string, bucket: InsightsBucket, timeZone?: string): string {
  const date = new Date(at);
  return bucket === 'day'
    ? date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })
    : date.toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone,
      });
}

/** The viewer's time zone as the page names it ('Europe/Paris'), or 'local time' if unknown. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

export type RangePreset = '24h' | '7d' | '30d' | 'custom';

const HOUR_MS = 3_600_000;
export const PRESET_MS: Record<Exclude<RangePreset, 'custom'>, number> = {
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
  '30d': 30 * 24 * HOUR_MS,
};

/** The CSV of the numbers on screen: one row per agent and a total row. */
export function insightsCsv(
  rows: Array<{ name: string; counters: InsightsCounters }>,
  range: { from: string; to: string },
): string {
  const kinds = Object.keys(FAILURE_LABELS) as InsightFailureKind[];
  const header = [
    'Agent',
    'From',
    'To',
    'Messages',
    'Replies',
    'Active users',
    'Chats',
    'Failures',
    ...kinds.map((kind) => `Failures: ${FAILURE_LABELS[kind]}`),
    'Retries',
    'Latency p50 (ms)',
    'Latency p95 (ms)',
    'First chunk p50 (ms)',
    'First chunk p95 (ms)',
    'Thumbs up',
    'Thumbs down',
  ];
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text)
      ? `"${text.replace(/"/g, '""').replace(/^([=+\-@])/, "'$1")}"`
      : text;
  };
  const lines = rows.map(({ name, counters: c }) =>
    [
      name,
      range.from,
      range.to,
      c.messages,
      c.replies,
      c.activeUsers,
      c.chats,
      c.failed,
      ...kinds.map((kind) => c.failures[kind]),
      c.retries,
      c.latency.p50Ms,
      c.latency.p95Ms,
      c.firstChunk.p50Ms,
      c.firstChunk.p95Ms,
      c.thumbsUp,
      c.thumbsDown,
    ]
      .map(cell)
      .join(','),
  );
  return [header.map(cell).join(','), ...lines].join('\r\n') + '\r\n';
}
