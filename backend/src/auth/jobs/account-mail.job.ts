import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MailService } from '../../mail/mail.service';
import { normalizeEmail, UsersService } from '../../profiles/users.service';
import { JobHandler } from '../../queue/job-handler.decorator';
import type { AccountMailJob } from '../../queue/job-types';
import { AccountTokensService } from '../account-tokens.service';

/** Looks the account up and writes the mail: the request that asked for it has already answered. */
@Injectable()
export class AccountMailJobHandler {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly tokens: AccountTokensService,
    private readonly mail: MailService,
  ) {}

  @JobHandler('account.mail')
  async send(job: AccountMailJob): Promise<void> {
    switch (job.kind) {
      case 'password-reset': {
        const user = await this.users.findByEmail(job.email);
        if (!user) return;
        const token = await this.tokens.issue(user.id, 'password_reset', user.email);
        return this.mail.sendPasswordReset(user.email, this.link('/reset-password', token));
      }
      case 'verify-email': {
        const user = await this.users.findByEmail(job.email);
        if (!user || user.emailVerifiedAt) return;
        const token = await this.tokens.issue(user.id, 'email_verification', user.email);
        return this.mail.sendEmailVerification(user.email, this.link('/verify-email', token));
      }
      case 'registration-attempt': {
        const user = await this.users.findByEmail(job.email);
        if (!user) return;
        return this.mail.sendRegistrationAttempt(
          user.email,
          `${this.config.appOrigin}/`,
          `${this.config.appOrigin}/forgot-password`,
        );
      }
      case 'email-change': {
        const newEmail = normalizeEmail(job.newEmail);
        const user = await this.users.findById(job.userId);
        if (!user || user.pendingEmail !== newEmail) return;
        if (await this.users.findByEmail(newEmail)) return this.mail.sendEmailChangeRefused(newEmail);
        const token = await this.tokens.issue(user.id, 'email_change', newEmail);
        return this.mail.sendEmailChange(newEmail, this.link('/confirm-email', token));
      }
      case 'email-changed':
        return this.mail.sendEmailChanged(
          job.oldEmail,
          job.newEmail,
          `${this.config.appOrigin}/forgot-password`,
        );
    }
  }

  private link(path: string, token: string): string {
    return `${this.config.appOrigin}${path}?token=${encodeURIComponent(token)}`;
  }
}
