import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';

/**
 * One key per purpose, derived from JWT_SECRET (HKDF-SHA256, salt "switchboard", the purpose as info): a
 * key for signed attachment links never signs a callback token, and none is JWT_SECRET itself. Rotating
 * JWT_SECRET rotates them all. `purpose` names the use and its version ('attachment-link-v1').
 */
export function purposeKeyBytes(jwtSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'switchboard', purpose, 32));
}

/** `purposeKeyBytes` as a KeyObject, for HMACs. */
export function purposeKey(jwtSecret: string, purpose: string): KeyObject {
  return createSecretKey(purposeKeyBytes(jwtSecret, purpose));
}

/**
 * Text sealed with AES-256-GCM under a purpose key: `iv.body.tag` in base64url. `context` (additional
 * authenticated data) binds a sealed value to where it belongs (a company's id): copied elsewhere, it does
 * not open.
 */
export class SealedBox {
  private readonly key: Buffer;

  constructor(jwtSecret: string, purpose: string) {
    this.key = purposeKeyBytes(jwtSecret, purpose);
  }

  seal(text: string, context?: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  /** The text back; null when it cannot be opened (another key or context, tampered, malformed). */
  open(sealed: string, context?: string): string | null {
    const [iv, body, tag, extra] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !body || !tag || extra || iv.length !== 12 || tag.length !== 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
