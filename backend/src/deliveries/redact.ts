import { DELIVERY_BODY_MAX_CHARS } from '../contracts/deliveries';

export const REDACTED = '[redacted]';

/** Field and header names whose values are secrets: passwords, secrets, tokens, keys, signatures. */
const SECRET_NAME =
  /pass(word|wd)?|secret|token|api[-_ ]?key|apikey|authorization|signature|credential|cookie|private[-_]?key|^sig$/i;

/**
 * A URL's secrets: the values of query parameters named like secrets (a signed file link's `sig`, a
 * `token`), userinfo, and the token a callback URL carries in its path (`/agent-callbacks/<id>/<token>`
 * style paths are not used, but a long opaque segment after `token` is).
 */
function redactUrl(text: string): string {
  if (!/^https?:\/\//i.test(text)) return text;
  // Userinfo needs an `@`, a query a `?`: a URL with neither (a callback URL) has nothing to redact.
  if (!text.includes('@') && !text.includes('?')) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  let changed = false;
  if (url.username || url.password) {
    url.username = url.username ? 'redacted' : '';
    url.password = '';
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_NAME.test(key) || /^(exp|expires|signature|x-amz-.*)$/i.test(key)) {
      url.searchParams.set(key, REDACTED);
      changed = true;
    }
  }
  return changed ? url.toString() : text;
}

/** A JSON value with every secret-named field's value, and URLs' secrets, replaced by REDACTED. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      SECRET_NAME.test(key) && item !== null && item !== undefined && item !== ''
        ? REDACTED
        : redactValue(item, depth + 1);
  }
  return out;
}

/** Headers as kept: secret-named ones (the signature, authorization) redacted. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = SECRET_NAME.test(name) ? REDACTED : value;
  return out;
}

/** Cut to DELIVERY_BODY_MAX_CHARS, saying how much was left out. */
export function truncateBody(text: string): string {
  if (text.length <= DELIVERY_BODY_MAX_CHARS) return text;
  return `${text.slice(0, DELIVERY_BODY_MAX_CHARS)}\n… [${text.length - DELIVERY_BODY_MAX_CHARS} more characters not kept]`;
}

/** A JSON value as kept: redacted, compact (the log indents it for reading), truncated. */
export function redactJson(value: unknown): string {
  return truncateBody(JSON.stringify(redactValue(value)) ?? '');
}

/**
 * An answer as kept: JSON is redacted field by field; anything else (a stream's text, HTML) is kept as
 * it is but for `key=value` / `"key": "value"` pairs named like secrets. Truncated.
 */
export function redactText(text: string): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return redactJson(JSON.parse(text));
    } catch {
      // Not JSON after all: read as text.
    }
  }
  const cut = text.length > DELIVERY_BODY_MAX_CHARS * 2 ? text.slice(0, DELIVERY_BODY_MAX_CHARS * 2) : text;
  const redacted = cut
    .replace(/\bBearer\s+[\w.~+/=-]+/g, `Bearer ${REDACTED}`)
    .replace(
      /("?(?:[\w-]*(?:password|secret|token|api[-_]?key|authorization|signature)[\w-]*)"?\s*[:=]\s*)("[^"]*"|[^\s&,;}"]+)/gi,
      (_m, name: string) => `${name}${REDACTED}`,
    );
  return truncateBody(cut.length < text.length ? redacted + text.slice(cut.length) : redacted);
}
