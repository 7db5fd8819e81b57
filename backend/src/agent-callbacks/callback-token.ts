import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { purposeKey } from '../common/purpose-key';

/**
 * Callback tokens are derived, not stored (nothing is written for them on the message path):
 *
 *   base64url( version (1 byte) || expiresAt (uint48 BE, Unix ms) || MAC (25 bytes) )
 *   MAC = HMAC-SHA256(key, "agent-callback" 0x00 || version || expiresAt || messageId), first 25 bytes
 *
 * 32 bytes, 43 characters: the length random tokens had. The MAC binds the token to its message and
 * its expiry (a token of another message, or with its expiry changed, does not verify); truncated to
 * 200 bits, it is still far beyond guessing. The expiry is in milliseconds so that each delivery attempt
 * of a message (a retry) carries a token of its own. The key comes from JWT_SECRET (HKDF-SHA256 with its own
 * label), so rotating JWT_SECRET voids the callback tokens outstanding, like the sessions.
 *
 * A reply asked for again (a regenerate or an edit: round 1, 2...) gets version 2 tokens, bound to
 * their round as well, in the same 32 bytes:
 *
 *   base64url( 2 || expiresAt (uint48 BE) || round (uint24 BE) || MAC (22 bytes) )
 *
 * so a late callback of an earlier round is told apart from the round being waited for (and refused).
 */
export const CALLBACK_TOKEN_VERSION = 1;
/** The version of a token bound to a round after the first. */
export const CALLBACK_TOKEN_ROUND_VERSION = 2;
const HEADER_BYTES = 7;
const MAC_BYTES = 25;
const ROUND_BYTES = 3;
const ROUND_MAC_BYTES = MAC_BYTES - ROUND_BYTES;
const MAX_ROUND = 0xffffff;
const TOKEN_BYTES = HEADER_BYTES + MAC_BYTES;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const LABEL = Buffer.from('agent-callback\0', 'latin1');

export function callbackTokenKey(jwtSecret: string): KeyObject {
  return purposeKey(jwtSecret, 'agent-callback-token-v1');
}

function mac(key: KeyObject, header: Buffer, messageId: string, bytes = MAC_BYTES): Buffer {
  return createHmac('sha256', key)
    .update(LABEL)
    .update(header)
    .update(messageId.toLowerCase(), 'latin1')
    .digest()
    .subarray(0, bytes);
}

/** The token for a message, valid until `expiresAtMs` (Unix milliseconds), for the reply's `round`. */
export function mintCallbackToken(key: KeyObject, messageId: string, expiresAtMs: number, round = 0): string {
  if (round > 0) {
    const header = Buffer.alloc(HEADER_BYTES + ROUND_BYTES);
    header.writeUInt8(CALLBACK_TOKEN_ROUND_VERSION, 0);
    header.writeUIntBE(Math.floor(expiresAtMs), 1, 6);
    header.writeUIntBE(Math.min(round, MAX_ROUND), HEADER_BYTES, ROUND_BYTES);
    return Buffer.concat([header, mac(key, header, messageId, ROUND_MAC_BYTES)]).toString('base64url');
  }
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt8(CALLBACK_TOKEN_VERSION, 0);
  header.writeUIntBE(Math.floor(expiresAtMs), 1, 6);
  return Buffer.concat([header, mac(key, header, messageId)]).toString('base64url');
}

/**
 * The expiry (Unix milliseconds) a token carries when it is this message's, made with this key; null for
 * anything else (another message's token, an altered one, a session token, noise). The MAC is compared
 * in constant time. Whether the expiry has passed is the caller's check (by the database's clock).
 */
export function verifyCallbackToken(key: KeyObject, messageId: string, token: string): number | null {
  return verifyCallbackTokenRound(key, messageId, token)?.expiresAtMs ?? null;
}

/** As verifyCallbackToken, with the round of the reply the token was given for (0: the first). */
export function verifyCallbackTokenRound(
  key: KeyObject,
  messageId: string,
  token: string,
): { expiresAtMs: number; round: number } | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TOKEN_BYTES) return null;
  // 43 characters carry 258 bits: only the canonical spelling of the 32 bytes is the token.
  if (bytes.toString('base64url') !== token) return null;
  const version = bytes[0];
  if (version === CALLBACK_TOKEN_VERSION) {
    const header = bytes.subarray(0, HEADER_BYTES);
    if (!timingSafeEqual(bytes.subarray(HEADER_BYTES), mac(key, header, messageId))) return null;
    return { expiresAtMs: header.readUIntBE(1, 6), round: 0 };
  }
  if (version !== CALLBACK_TOKEN_ROUND_VERSION) return null;
  const header = bytes.subarray(0, HEADER_BYTES + ROUND_BYTES);
  const expected = mac(key, header, messageId, ROUND_MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(HEADER_BYTES + ROUND_BYTES), expected)) return null;
  const round = header.readUIntBE(HEADER_BYTES, ROUND_BYTES);
  return round > 0 ? { expiresAtMs: header.readUIntBE(1, 6), round } : null;
}
