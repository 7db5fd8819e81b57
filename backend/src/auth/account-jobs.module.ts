import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module';
import { MailModule } from '../mail/mail.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { AccountRegistrationService } from './account-registration.service';
import { AccountTokensRepository } from './account-tokens.repository';
import { AccountTokensService } from './account-tokens.service';
import { AccountJobsHandler } from './jobs/account-jobs.handler';

/** Account work done in jobs (mails that need a lookup, registrations that must not show a taken address). */
@Module({
  imports: [ProfilesModule, CompaniesModule, MailModule],
  providers: [AccountTokensService, AccountTokensRepository, AccountRegistrationService, AccountJobsHandler],
  exports: [AccountTokensService, AccountRegistrationService],
})
export class AccountJobsModule {}
