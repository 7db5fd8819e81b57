import { Inject, Injectable } from '@nestjs/common';
import { SealedBox } from '../common/purpose-key';
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
  private readonly box: SealedBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SealedBox(config.jwtSecret, 'sso-client-secret-v1');
  }

  seal(companyId: string, secret: string): string {
    return this.box.seal(secret, companyId);
  }

  /** The secret back; null when it cannot be opened (another key, another company, tampered). */
  open(companyId: string, sealed: string): string | null {
    return this.box.open(sealed, companyId);
  }
}
