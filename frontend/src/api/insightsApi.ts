import type { InsightsQuery, InsightsReport } from '@contracts/insights';
import { inCompany } from './companyScope';
import { http } from './httpClient';
import { withQuery } from './query';

/** Company Admin → Insights of the company named by X-Company-Id (owners and admins only). */
export const insightsApi = {
  report: (companyId: string, { from, to, agentId, bucket }: InsightsQuery) =>
    http.get<InsightsReport>(
      withQuery('/api/company/insights', { from, to, agentId, bucket }),
      inCompany(companyId),
    ),
};
