import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AgentsModule } from '../agents/agents.module';
import { CompaniesModule } from '../companies/companies.module';
import { CompanyQuotasModule } from '../quotas/company-quotas.module';
import { CompanyAdminController } from './company-admin.controller';
import { CompanyAdminService } from './company-admin.service';
import { CompanySettingsRepository } from './company-settings.repository';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

/** Company Admin: members and roles, settings, details and the company's agents. */
@Module({
  imports: [AuthModule, CompaniesModule, AgentsModule, CompanyQuotasModule],
  controllers: [CompanyAdminController],
  providers: [CompanyAdminService, CompanySettingsRepository, MembersRepository, MembersService],
  exports: [MembersService],
})
export class CompanyAdminModule {}
