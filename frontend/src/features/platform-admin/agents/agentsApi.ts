import type { PlatformAgentPage } from '@contracts/platform-admin';
import { http } from '../../../api/httpClient';

/** Platform Admin → Agents: read-only (superadmins only; the server checks every call). */
export const agentsApi = {
  list: (query: { companyId?: string | null; cursor?: string | null; limit?: number }) => {
    const params = new URLSearchParams();
    if (query.companyId) params.set('companyId', query.companyId);
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.limit) params.set('limit', String(query.limit));
    const qs = params.toString();
    return http.get<PlatformAgentPage>(`/api/admin/agents${qs ? `?${qs}` : ''}`);
  },
};
