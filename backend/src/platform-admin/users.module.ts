import { Module } from '@nestjs/common';
import { AccountJobsModule } from '../auth/account-jobs.module';
import { AuthModule } from '../auth/auth.module';
import { CompaniesModule } from '../companies/companies.module';
import { FilesModule } from '../files/files.module';
import { MailModule } from '../mail/mail.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { CompanyQuotasModule } from '../quotas/company-quotas.module';
import { PlatformAgentsController } from './agents.controller';
import { PlatformAgentsRepository } from './agents.repository';
import { PlatformAgentsService } from './agents.service';
import { PlatformCompaniesController } from './companies.controller';
import { PlatformCompaniesRepository } from './companies.repository';
import { PlatformCompaniesService } from './companies.service';
import { PlatformUsersController } from './users.controller';
import { PlatformUsersRepository } from './users.repository';
import { PlatformUsersService } from './users.service';

/** Platform Admin → Users, Companies and Agents (superadmins only). */
@Module({
  imports: [
    AuthModule,
    AccountJobsModule,
    ProfilesModule,
    CompaniesModule,
    MailModule,
    CompanyQuotasModule,
    FilesModule,
  ],
  controllers: [PlatformUsersController, PlatformCompaniesController, PlatformAgentsController],
  providers: [
    PlatformUsersRepository,
    PlatformUsersService,
    PlatformCompaniesRepository,
    PlatformCompaniesService,
    PlatformAgentsRepository,
    PlatformAgentsService,
  ],
})
export class PlatformUsersModule {}
