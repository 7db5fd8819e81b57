import { Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { CompaniesModule } from '../companies/companies.module';
import { RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MailModule } from '../mail/mail.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { AccessTokenGuard } from './access-token.guard';
import { AccountJobsModule } from './account-jobs.module';
import { AccessTokenService } from './access-token.service';
import { AuthController } from './auth.controller';
import { GoogleGate } from './google/google-gate.guard';
import { AuthService } from './auth.service';
import { GoogleStrategy } from './google/google.strategy';
import { PasswordController } from './password.controller';
import { SessionsService } from './sessions.service';
import { SessionsRepository } from './sessions.repository';

const googleStrategy: Provider = {
  provide: GoogleStrategy,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => (config.google ? new GoogleStrategy(config) : null),
};

@Module({
  imports: [
    PassportModule.register({ session: false }),
    ProfilesModule,
    CompaniesModule,
    MailModule,
    AccountJobsModule,
  ],
  controllers: [AuthController, PasswordController],
  providers: [
    AuthService,
    SessionsService,
    SessionsRepository,
    AccessTokenService,
    GoogleGate,
    googleStrategy,
    // A provider of its own, so the lean send-message route can call the same instance (bootstrap.ts).
    AccessTokenGuard,
    // In this order: per-user rate limits need the user the access-token guard found.
    { provide: APP_GUARD, useExisting: AccessTokenGuard },
    { provide: APP_GUARD, useExisting: RateLimitGuard },
  ],
  exports: [SessionsService, AccessTokenService, AuthService],
})
export class AuthModule {}
