/**
 * The message quotas' periods, in UTC: a day from 00:00 to the next 00:00, a calendar month from the
 * 1st at 00:00 to the next month's 1st. Pure: every function takes the time it is asked about.
 */
export interface QuotaPeriod {
  /** The period's name in counter keys: '2026-11-28' (a day) or '2026-11' (a month). */
  key: string;
  start: Date;
  /** When it resets: the next period's start. */
  end: Date;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function utcDay(nowMs: number): QuotaPeriod {
  const now = new Date(nowMs);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { key: start.toISOString().slice(0, 10), start, end };
}

export function utcMonth(nowMs: number): QuotaPeriod {
  const now = new Date(nowMs);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { key: start.toISOString().slice(0, 7), start, end };
}

const messages = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;

/** The 429's message for a member over the per-user daily limit. */
export const userDailyQuotaReached = (limit: number): string =>
  `You have reached your company's limit of ${messages(limit)} per user per day. It resets at 00:00 UTC.`;

/** The 429's message for a company over its monthly limit; `resetsAt`: the next month's start. */
export const companyMonthlyQuotaReached = (limit: number, resetsAt: Date): string =>
  `You have reached your company's limit of ${messages(limit)} per month. It resets on ` +
  `${resetsAt.getUTCDate()} ${MONTHS[resetsAt.getUTCMonth()]} at 00:00 UTC.`;
