import { CanActivate, Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** Google routes exist only when Google sign-in is configured. */
@Injectable()
export class GoogleGate implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (!this.config.google) throw new NotFoundError('Google sign-in is not configured');
    return true;
  }
}
