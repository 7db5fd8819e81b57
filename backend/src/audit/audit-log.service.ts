import { Injectable } from '@nestjs/common';
import type { CompanyScope } from '../common/company-scope';
import { requireManager } from '../company-admin/require-manager';
import type { AuditPage } from '../contracts/audit';
import { AuditRepository } from './audit.repository';
import type { AuditLogQuery, CompanyActivityQuery } from './dto/audit.dto';

export const DEFAULT_AUDIT_PAGE = 50;

/** Reading the audit log: all of it for superadmins (checked by the route's guard), one company's for its managers. */
@Injectable()
export class AuditLogService {
  constructor(private readonly entries: AuditRepository) {}

  platformLog(query: AuditLogQuery): Promise<AuditPage> {
    return this.entries.page({ ...query, limit: query.limit ?? DEFAULT_AUDIT_PAGE });
  }

  companyActivity(scope: CompanyScope, query: CompanyActivityQuery): Promise<AuditPage> {
    requireManager(scope);
    return this.entries.page({
      ...query,
      companyId: scope.companyId,
      limit: query.limit ?? DEFAULT_AUDIT_PAGE,
    });
  }
}
