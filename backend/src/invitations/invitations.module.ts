import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CompaniesModule } from '../companies/companies.module';
import { CompanyAdminModule } from '../company-admin/company-admin.module';
import { MailModule } from '../mail/mail.module';
import { ProfilesModule } from '../profiles/profiles.module';
import {
  InvitationAcceptanceController,
  InvitedRegistrationController,
} from './invitation-acceptance.controller';
import { InvitationTokens } from './invitation-tokens';
import { InvitationsController } from './invitations.controller';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';

@Module({
  imports: [AuthModule, CompaniesModule, CompanyAdminModule, MailModule, ProfilesModule],
  controllers: [InvitationsController, InvitationAcceptanceController, InvitedRegistrationController],
  providers: [InvitationsService, InvitationsRepository, InvitationTokens],
})
export class InvitationsModule {}
