import type {
  CreatePlatformCompanyRequest,
  PlatformCompanyDetails,
  PlatformCompanyMemberView,
  PlatformCompanyPage,
} from '@contracts/platform-admin';
import type { CompanyQuotaUsage, UpdateCompanyQuotasRequest } from '@contracts/company-quotas';
import { http } from '../../../api/httpClient';
import { withQuery } from '../../../api/query';

const companyPath = (id: string) => `/api/admin/companies/${encodeURIComponent(id)}`;

/** Platform Admin → Companies (superadmins only; the server checks every call). */
export const companiesApi = {
  /** One page, newest first; `search` matches a part of the name. */
  list: ({ search, cursor, limit }: { search?: string; cursor?: string | null; limit?: number }) =>
    http.get<PlatformCompanyPage>(
      withQuery('/api/admin/companies', { search: search?.trim(), cursor, limit }),
    ),
  create: (request: CreatePlatformCompanyRequest) =>
    http.post<PlatformCompanyDetails>('/api/admin/companies', request),
  details: (id: string) => http.get<PlatformCompanyDetails>(companyPath(id)),
  members: (id: string) => http.get<PlatformCompanyMemberView[]>(`${companyPath(id)}/members`),
  remove: (id: string) => http.delete<void>(companyPath(id)),
  /** Sets the company's quotas (a limit left out stays; null removes it). */
  setQuotas: (id: string, request: UpdateCompanyQuotasRequest) =>
    http.patch<CompanyQuotaUsage>(`${companyPath(id)}/quotas`, request),
  /** Turns the company's single sign-on off (its SSO sessions end). */
  disableSso: (id: string) => http.post<void>(`${companyPath(id)}/sso/disable`),
};
