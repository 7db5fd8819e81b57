import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CompaniesModule } from '../companies/companies.module';
import { MailModule } from '../mail/mail.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { AccountRegistrationService } from './account-registration.service';
import { AccountTokensService } from './account-tokens.service';
import { AuthTokenEntity } from './auth-token.entity';
import { AccountJobsHandler } from './jobs/account-jobs.handler';

/** Account work done in jobs (mails that need a lookup, registrations that must not show a taken address). */
@Module({
  imports: [TypeOrmModule.forFeature([AuthTokenEntity]), ProfilesModule, CompaniesModule, MailModule],
  providers: [AccountTokensService, AccountRegistrationService, AccountJobsHandler],
  exports: [AccountTokensService, AccountRegistrationService],
})
export class AccountJobsModule {}
