import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

export const CROSS_SITE_REFUSED = 'This request must come from the Switchboard app itself.';

/**
 * Login CSRF and friends: routes that set or use the refresh cookie refuse a request a browser sent
 * from another site. Browsers send `Origin` on every POST (and `Sec-Fetch-Site`); clients that send
 * neither (curl, server-to-server) are not browsers riding on a victim's cookies.
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const origin = req.get('origin');
    if (origin !== undefined) {
      if (origin === this.config.appOrigin || origin === ownOrigin(req)) return true;
      throw new DomainError('FORBIDDEN', CROSS_SITE_REFUSED);
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new DomainError('FORBIDDEN', CROSS_SITE_REFUSED);
    return true;
  }
}

/** The origin this request was addressed to (scheme as Express sees it, behind TRUST_PROXY). */
function ownOrigin(req: Request): string | null {
  const host = req.get('host');
  return host ? `${req.protocol}://${host}` : null;
}
