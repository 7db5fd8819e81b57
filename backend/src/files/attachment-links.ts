import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { purposeKey } from '../common/purpose-key';

/**
 * Links to an attached file that work without a session: an `<img>` tag sends no Bearer token, and an
 * agent has none. A link is `/api/attachments/{id}?expires={unix seconds}&sig={mac}` where
 *
 *   mac = base64url( HMAC-SHA256(key, "attachment-link" 0x00 || id || "." || expires) )
 *
 * so it names one file until one moment; changing either voids it. The key is JWT_SECRET's purpose key
 * 'attachment-link-v1' (purposeKey: HKDF-SHA256, the derivation these links have always used, so links
 * handed out before keep working): rotating JWT_SECRET voids every link outstanding, like the sessions.
 */
const LABEL = Buffer.from('attachment-link\0', 'latin1');
const SIG_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function attachmentLinkKey(jwtSecret: string): KeyObject {
  return purposeKey(jwtSecret, 'attachment-link-v1');
}

function mac(key: KeyObject, fileId: string, expires: number): Buffer {
  return createHmac('sha256', key)
    .update(LABEL)
    .update(`${fileId.toLowerCase()}.${expires}`, 'latin1')
    .digest();
}

/** The signed path of a file, valid until `expiresAtSeconds` (Unix seconds). */
export function signAttachmentPath(key: KeyObject, fileId: string, expiresAtSeconds: number): string {
  const expires = Math.floor(expiresAtSeconds);
  return `/api/attachments/${fileId}?expires=${expires}&sig=${mac(key, fileId, expires).toString('base64url')}`;
}

/**
 * Whether `sig` is this file's signature for `expires`: 'valid', 'expired' (a genuine link whose time
 * has passed), or 'invalid' (anything else: no link, another file's, an altered one). Constant time.
 */
export function checkAttachmentLink(
  key: KeyObject,
  fileId: string,
  expires: unknown,
  sig: unknown,
  nowSeconds = Date.now() / 1000,
): 'valid' | 'expired' | 'invalid' {
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
  if (typeof sig !== 'string' || !SIG_SHAPE.test(sig)) return 'invalid';
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== 32 || given.toString('base64url') !== sig) return 'invalid';
  const at = Number(expires);
  if (!timingSafeEqual(given, mac(key, fileId, at))) return 'invalid';
  return at < nowSeconds ? 'expired' : 'valid';
}

/**
 * Links shown to the chat's owner expire at the end of the next whole hour: every read of the history
 * within an hour gives the same URL, so the browser's cache keeps the image, and a copied link dies soon.
 */
export function userLinkExpiry(nowMs = Date.now()): number {
  const hour = 3600;
  return (Math.floor(nowMs / 1000 / hour) + 2) * hour;
}
