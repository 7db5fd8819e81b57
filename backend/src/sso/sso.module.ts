import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CompaniesModule } from '../companies/companies.module';
import { CompanyAdminModule } from '../company-admin/company-admin.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { MailModule } from '../mail/mail.module';
import { ClientSecretBox } from './client-secret-box';
import { CompanyDomainsRepository } from './company-domains.repository';
import { CompanySsoRepository } from './company-sso.repository';
import { ExternalIdentitiesRepository } from './external-identities.repository';
import { SsoLoginController } from './sso-login.controller';
import { SsoLoginService } from './sso-login.service';
import {
  PlatformSsoController,
  SsoDomainVerificationController,
  SsoSettingsController,
} from './sso-settings.controller';
import { SsoSettingsService } from './sso-settings.service';

/** Single sign-on per company: its provider settings and proved email domains. */
@Module({
  imports: [AuthModule, CompaniesModule, CompanyAdminModule, MailModule, ProfilesModule],
  controllers: [
    SsoSettingsController,
    SsoDomainVerificationController,
    SsoLoginController,
    PlatformSsoController,
  ],
  providers: [
    SsoSettingsService,
    SsoLoginService,
    CompanySsoRepository,
    CompanyDomainsRepository,
    ExternalIdentitiesRepository,
    ClientSecretBox,
  ],
  exports: [CompanySsoRepository],
})
export class SsoModule {}
