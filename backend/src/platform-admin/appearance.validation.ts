import { MAX_ASSET_URL_LENGTH } from '../contracts/platform-appearance';

/** The two kinds of address the logo and the favicon may have; anything else is refused. */
export function assetUrlMessage(field: string): string {
  return `${field} must be an https:// address or a path on this site starting with /.`;
}

// Whitespace and control characters: a browser strips or rewrites them ('java\tscript:' still runs).
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/;

/**
 * Whether an address is safe to put in an <img src> or a <link rel="icon" href>: an https URL without
 * credentials, or a same-origin path. Refused: javascript:, data:, http:, any other scheme, a
 * protocol-relative '//host' (and '/\host', which browsers read the same way), whitespace or control
 * characters anywhere.
 */
export function isSafeAssetUrl(value: string): boolean {
  if (value.length === 0 || value.length > MAX_ASSET_URL_LENGTH) return false;
  if (UNSAFE_CHARACTERS.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // The scheme as typed, too: URL would accept 'HTTPS:' (fine) but we also want no surprises.
  if (url.protocol !== 'https:' || !/^https:\/\//i.test(value)) return false;
  if (url.username || url.password) return false;
  return url.hostname.length > 0;
}

/** '' and whitespace mean "the built-in one". */
export function normalizeAssetUrl(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

const FILE_URL = /^\/api\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The stored file an address names, when it is one of our uploads ('/api/files/{id}'). */
export function uploadedFileId(url: string | null): string | null {
  const match = url ? FILE_URL.exec(url) : null;
  return match ? match[1].toLowerCase() : null;
}
