/**
 * What the dashboard shows of a job's data. Jobs carry what a request handed them: mail bodies with
 * sign-in links (password resets, invitations), password hashes of pending registrations. An operator
 * sees which job it is and for whom, not those.
 */
const HIDDEN_KEYS = /password|token|secret|hash|^(text|html)$/i;
export const HIDDEN = '[hidden]';

export function redactJobData(data: unknown, depth = 0): unknown {
  if (depth > 8) return HIDDEN;
  if (Array.isArray(data)) return data.map((item) => redactJobData(item, depth + 1));
  if (!data || typeof data !== 'object') return data;
  return Object.fromEntries(
    Object.entries(data as Record<string, unknown>).map(([key, value]) => [
      key,
      HIDDEN_KEYS.test(key) ? HIDDEN : redactJobData(value, depth + 1),
    ]),
  );
}
