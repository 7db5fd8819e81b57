import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { CompanyScoped } from '../companies/company-member.guard';
import { SuperadminOnly } from '../platform-admin/superadmin.guard';
import { AuditLogService } from './audit-log.service';
import { AuditLogQuery, AuditPageDto, CompanyActivityQuery } from './dto/audit.dto';

/** Platform Admin → Security: the whole audit log, newest first, filtered and paged by id cursor. */
@ApiTags('platform admin')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin/audit')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @ApiOkResponse({ type: AuditPageDto })
  list(@Query() query: AuditLogQuery): Promise<AuditPageDto> {
    return this.audit.platformLog(query);
  }
}

/** Company Admin → Activity: the audit entries of the company named by X-Company-Id (owners and admins). */
@CompanyScoped('company admin', 'The company to read')
@Controller('company/activity')
export class CompanyActivityController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @ApiOkResponse({ type: AuditPageDto })
  list(@CurrentScope() scope: CompanyScope, @Query() query: CompanyActivityQuery): Promise<AuditPageDto> {
    return this.audit.companyActivity(scope, query);
  }
}
