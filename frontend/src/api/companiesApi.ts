import { http } from './httpClient';
import type { CompanyMembership } from './contracts';

export const companiesApi = {
  list: () => http.get<CompanyMembership[]>('/api/companies'),
  get: (id: string) => http.get<CompanyMembership>(`/api/companies/${encodeURIComponent(id)}`),
  create: (name: string) => http.post<CompanyMembership>('/api/companies', { name }),
};
