import { inCompany } from './companyScope';
import type {
  AddSsoDomainRequest,
  SsoDomainView,
  SsoSettingsView,
  UpdateSsoSettingsRequest,
  VerifySsoDomainResponse,
} from './contracts';
import { http } from './httpClient';

/** Single sign-on of the company named by X-Company-Id (its owners only), and the domain proof link. */
export const ssoApi = {
  settings: (companyId: string) => http.get<SsoSettingsView>('/api/company/sso', inCompany(companyId)),
  update: (companyId: string, request: UpdateSsoSettingsRequest) =>
    http.request<SsoSettingsView>('PUT', '/api/company/sso', { ...inCompany(companyId), body: request }),
  claimDomain: (companyId: string, request: AddSsoDomainRequest) =>
    http.post<SsoDomainView>('/api/company/sso/domains', request, inCompany(companyId)),
  removeDomain: (companyId: string, domainId: string) =>
    http.delete<void>(`/api/company/sso/domains/${encodeURIComponent(domainId)}`, inCompany(companyId)),
  verifyDomain: (token: string) => http.post<VerifySsoDomainResponse>('/api/sso/domains/verify', { token }),
};
