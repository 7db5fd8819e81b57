import { inCompany } from './companyScope';
import type { AuditAction, AuditPage } from './contracts';
import type { PlatformCompanyPage } from '@contracts/platform-admin';
import { http } from './httpClient';

export const AUDIT_PAGE_SIZE = 50;

/** The filters of the audit log; empty ones are left out. */
export interface AuditFilter {
  action?: AuditAction | null;
  /** An email (or its start) or a user id. */
  actor?: string;
  /** Platform log only. */
  companyId?: string | null;
}

function auditQuery(filter: AuditFilter, before: string | null): string {
  const params = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  if (filter.action) params.set('action', filter.action);
  const actor = filter.actor?.trim();
  if (actor) params.set('actor', actor);
  if (filter.companyId) params.set('companyId', filter.companyId);
  if (before) params.set('before', before);
  return params.toString();
}

/** Reading the audit log: all of it (superadmins) or the current company's (its owners and admins). */
export const auditApi = {
  platform: (filter: AuditFilter, before: string | null = null) =>
    http.get<AuditPage>(`/api/admin/audit?${auditQuery(filter, before)}`),
  company: (companyId: string, filter: AuditFilter, before: string | null = null) =>
    http.get<AuditPage>(
      `/api/company/activity?${auditQuery({ ...filter, companyId: null }, before)}`,
      inCompany(companyId),
    ),
  /** Companies whose name matches, for the Company filter of the platform log. */
  companies: (search: string) => {
    const params = new URLSearchParams({ limit: '20' });
    if (search) params.set('search', search);
    return http.get<PlatformCompanyPage>(`/api/admin/companies?${params.toString()}`);
  },
};
