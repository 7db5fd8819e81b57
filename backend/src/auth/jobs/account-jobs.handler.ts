import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MailService } from '../../mail/mail.service';
import { EMAIL_TAKEN, normalizeEmail, UsersService } from '../../profiles/users.service';
import { JobHandler } from '../../queue/job-handler.decorator';
import type { AccountMailJob, AccountRegisterJob } from '../../queue/job-types';
import { AccountRegistrationService } from '../account-registration.service';
import { AccountTokensService } from '../account-tokens.service';

/** As long as a verification link: the address's owner may read the mail a day or two later. */
const ADDRESS_CONFIRMATION_TTL_MS = 48 * 60 * 60 * 1000;

/**
 * Account work whose outcome must not show in the answer of the request that asked for it: that request
 * has already answered, the same way for an address with an account and one without.
 */
@Injectable()
export class AccountJobsHandler {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly tokens: AccountTokensService,
    private readonly registration: AccountRegistrationService,
    private readonly mail: MailService,
  ) {}

  /**
   * Registration when email verification is required: the account (and its company) is created here,
   * then the verification link mailed; a taken address gets a mail telling its owner instead.
   */
  @JobHandler('account.register')
  async register(job: AccountRegisterJob): Promise<void> {
    try {
      await this.registration.createWithCompany(job);
    } catch (error) {
      if (!(error instanceof ConflictError && error.message === EMAIL_TAKEN)) throw error;
      // A retry after the account was created lands here too: mail the link again, not the warning.
      const existing = await this.users.findByEmail(job.email);
      if (existing && existing.passwordHash === job.passwordHash)
        return this.send({ kind: 'verify-email', email: job.email });
      return this.send({ kind: 'registration-attempt', email: job.email });
    }
    await this.send({ kind: 'verify-email', email: job.email });
  }

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
        if (user.passwordUnproven) {
          // Whoever chose this password never proved the address (a manager's copy of an invitation
          // link): a link that only verified it would hand them a verified account. The owner of the
          // address proves it by choosing the password, which also ends every session.
          const token = await this.tokens.issue(user.id, 'password_reset', user.email, {
            ttlMs: ADDRESS_CONFIRMATION_TTL_MS,
          });
          return this.mail.sendAddressConfirmationWithPassword(
            user.email,
            this.link('/reset-password', token),
          );
        }
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
