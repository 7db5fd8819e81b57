/**
 * A `redirect` query value made safe to navigate to: a path on this origin ('/chat', '/company/admin?x=1'),
 * else null. Refused: absolute and protocol-relative URLs ('//evil.example', '/\\evil.example'), other
 * schemes ('javascript:'), and anything with a backslash or a control character, which browsers may
 * read as part of a host.
 */
export function safeRedirectPath(
  raw: string | null | undefined,
  origin = window.location.origin,
): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  // Backslashes, whitespace and control characters: some browsers normalise them into '//' or a host.
  if (/[\\\s]/.test(raw) || [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
