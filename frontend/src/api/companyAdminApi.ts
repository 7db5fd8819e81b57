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
import { withQuery } from './query';

const memberPath = (userId: string) => `/api/company/members/${encodeURIComponent(userId)}`;

/** Company administration of the company named by X-Company-Id (owners and admins only). */
export const companyAdminApi = {
  details: (companyId: string) => http.get<CompanyDetails>('/api/company/details', inCompany(companyId)),
  rename: (companyId: string, name: string) =>
    http.patch<CompanyDetails>('/api/company', { name }, inCompany(companyId)),
  /** A page of Company Users, oldest member first; `search`: part of a name or email. */
  members: (companyId: string, { search, limit, cursor }: MemberListQuery = {}) =>
    http.get<MemberPage>(withQuery('/api/company/members', { search, limit, cursor }), inCompany(companyId)),
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
