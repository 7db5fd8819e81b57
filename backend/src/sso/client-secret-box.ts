import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * Companies' OpenID Connect client secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from
 * JWT_SECRET, bound to the company (its id is the additional authenticated data, so a sealed secret
 * copied onto another company's row does not open). A database leak alone yields no secret. Unlike
 * agents' signing secrets (which the app must show once and sends in clear to agents), this one is
 * needed only by the api, so it is never kept in clear. Rotating JWT_SECRET means owners enter the
 * secret again (an unopenable one reads as "no secret").
 */
@Injectable()
export class ClientSecretBox {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.jwtSecret, 'switchboard', 'sso-client-secret-v1', 32));
  }

  seal(companyId: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(companyId, 'utf8'));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  /** The secret back; null when it cannot be opened (another key, another company, tampered). */
  open(companyId: string, sealed: string): string | null {
    const [iv, body, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !body || !tag || iv.length !== 12 || tag.length !== 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(companyId, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
