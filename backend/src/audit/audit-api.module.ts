import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CompaniesModule } from '../companies/companies.module';
import { AuditEntryEntity } from './audit-entry.entity';
import { AuditLogController, CompanyActivityController } from './audit.controller';
import { AuditLogService } from './audit-log.service';
import { AuditRepository } from './audit.repository';

/**
 * The api's routes that read the audit log. Apart from AuditModule (which only writes, and is in the
 * worker too): these need the HTTP guards and the company membership lookup.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntryEntity]), CompaniesModule],
  controllers: [AuditLogController, CompanyActivityController],
  providers: [AuditLogService, AuditRepository],
})
export class AuditApiModule {}
