import type {
  CreatePlatformCompanyRequest,
  PlatformCompanyDetails,
  PlatformCompanyMemberView,
  PlatformCompanyPage,
} from '@contracts/platform-admin';
import { http } from '../../../api/httpClient';

const companyPath = (id: string) => `/api/admin/companies/${encodeURIComponent(id)}`;

/** Platform Admin → Companies (superadmins only; the server checks every call). */
export const companiesApi = {
  /** One page, newest first; `search` matches a part of the name. */
  list: (query: { search?: string; cursor?: string | null; limit?: number }) => {
    const params = new URLSearchParams();
    if (query.search?.trim()) params.set('search', query.search.trim());
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit) params.set('limit', String(query.limit));
    const qs = params.toString();
    return http.get<PlatformCompanyPage>(`/api/admin/companies${qs ? `?${qs}` : ''}`);
  },
  create: (request: CreatePlatformCompanyRequest) =>
    http.post<PlatformCompanyDetails>('/api/admin/companies', request),
  details: (id: string) => http.get<PlatformCompanyDetails>(companyPath(id)),
  members: (id: string) => http.get<PlatformCompanyMemberView[]>(`${companyPath(id)}/members`),
  remove: (id: string) => http.delete<void>(companyPath(id)),
};
