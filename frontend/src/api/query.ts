/** A query parameter's value; absent (undefined, null, '' or false) ones are left out of the URL. */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * `path` with the given parameters as its query string, in the order given (the session preload
 * matches the bootstrap's URL exactly), leaving out absent ones; no `?` when none is left.
 */
export function withQuery(path: string, params: Record<string, QueryValue>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    query.set(name, String(value));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
