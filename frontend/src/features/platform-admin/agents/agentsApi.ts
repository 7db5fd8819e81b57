import type { PlatformAgentPage } from '@contracts/platform-admin';
import { http } from '../../../api/httpClient';
import { withQuery } from '../../../api/query';

/** Platform Admin → Agents: read-only (superadmins only; the server checks every call). */
export const agentsApi = {
  list: ({
    companyId,
    cursor,
    limit,
  }: {
    companyId?: string | null;
    cursor?: string | null;
    limit?: number;
  }) => http.get<PlatformAgentPage>(withQuery('/api/admin/agents', { companyId, cursor, limit })),
};
