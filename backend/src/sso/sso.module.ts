import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module';
import { MailModule } from '../mail/mail.module';
import { ClientSecretBox } from './client-secret-box';
import { CompanyDomainsRepository } from './company-domains.repository';
import { CompanySsoRepository } from './company-sso.repository';
import { SsoDomainVerificationController, SsoSettingsController } from './sso-settings.controller';
import { SsoSettingsService } from './sso-settings.service';

/** Single sign-on per company: its provider settings and proved email domains. */
@Module({
  imports: [CompaniesModule, MailModule],
  controllers: [SsoSettingsController, SsoDomainVerificationController],
  providers: [SsoSettingsService, CompanySsoRepository, CompanyDomainsRepository, ClientSecretBox],
  exports: [CompanySsoRepository],
})
export class SsoModule {}
