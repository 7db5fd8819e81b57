import { inCompany } from './companyScope';
import type {
  CompanyAgentView,
  CompanyDetails,
  CompanyRole,
  CreateCompanyAgentRequest,
  MemberListQuery,
  MemberPage,
  MemberView,
} from './contracts';
import { http } from './httpClient';

const memberPath = (userId: string) => `/api/company/members/${encodeURIComponent(userId)}`;

/** Company administration of the company named by X-Company-Id (owners and admins only). */
export const companyAdminApi = {
  details: (companyId: string) => http.get<CompanyDetails>('/api/company/details', inCompany(companyId)),
  rename: (companyId: string, name: string) =>
    http.patch<CompanyDetails>('/api/company', { name }, inCompany(companyId)),
  /** A page of Company Users, oldest member first; `search`: part of a name or email. */
  members: (companyId: string, query: MemberListQuery = {}) => {
    const params = new URLSearchParams();
    if (query.search) params.set('search', query.search);
    if (query.limit) params.set('limit', String(query.limit));
    if (query.cursor) params.set('cursor', query.cursor);
    const qs = params.toString();
    return http.get<MemberPage>(`/api/company/members${qs ? `?${qs}` : ''}`, inCompany(companyId));
  },
  changeRole: (companyId: string, userId: string, role: CompanyRole) =>
    http.patch<MemberView>(memberPath(userId), { role }, inCompany(companyId)),
  removeMember: (companyId: string, userId: string) =>
    http.delete<void>(memberPath(userId), inCompany(companyId)),
  agents: (companyId: string) => http.get<CompanyAgentView[]>('/api/company/agents', inCompany(companyId)),
  createAgent: (companyId: string, request: CreateCompanyAgentRequest) =>
    http.post<CompanyAgentView>('/api/company/agents', request, inCompany(companyId)),
  setAgentActive: (companyId: string, agentId: string, isActive: boolean) =>
    http.patch<CompanyAgentView>(
      `/api/company/agents/${encodeURIComponent(agentId)}`,
      { isActive },
      inCompany(companyId),
    ),
};
