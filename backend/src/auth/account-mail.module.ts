import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { AccountTokensService } from './account-tokens.service';
import { AuthTokenEntity } from './auth-token.entity';
import { AccountMailJobHandler } from './jobs/account-mail.job';

/** Emailed account tokens and the job that mails them; in the api and in every worker. */
@Module({
  imports: [TypeOrmModule.forFeature([AuthTokenEntity]), ProfilesModule, MailModule],
  providers: [AccountTokensService, AccountMailJobHandler],
  exports: [AccountTokensService],
})
export class AccountMailModule {}
