import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module';
import { AuditLogController, CompanyActivityController } from './audit.controller';
import { AuditLogService } from './audit-log.service';

/**
 * The api's routes that read the audit log. Apart from AuditModule (which only writes, and is in the
 * worker too): these need the HTTP guards and the company membership lookup.
 */
@Module({
  imports: [CompaniesModule],
  controllers: [AuditLogController, CompanyActivityController],
  providers: [AuditLogService],
})
export class AuditApiModule {}
