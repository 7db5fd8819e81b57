import type {
  BulkReplayRequest,
  BulkReplayResult,
  DeliveryDetail,
  DeliveryOutcome,
  DeliveryPage,
  DeliverySettings,
} from '@contracts/deliveries';
import { inCompany } from './companyScope';
import { http } from './httpClient';
import { withQuery } from './query';

/** Company Admin → Delivery log of the company named by X-Company-Id (owners and admins only). */
export const deliveriesApi = {
  list: (
    companyId: string,
    query: { agentId?: string; outcome?: DeliveryOutcome | 'failed'; before?: string },
  ) =>
    http.get<DeliveryPage>(
      withQuery('/api/company/deliveries', {
        agentId: query.agentId,
        outcome: query.outcome,
        before: query.before,
      }),
      inCompany(companyId),
    ),
  get: (companyId: string, id: string) =>
    http.get<DeliveryDetail>(`/api/company/deliveries/${encodeURIComponent(id)}`, inCompany(companyId)),
  replay: (companyId: string, id: string) =>
    http.post<DeliveryDetail>(
      `/api/company/deliveries/${encodeURIComponent(id)}/replay`,
      undefined,
      inCompany(companyId),
    ),
  replayFailedSince: (companyId: string, request: BulkReplayRequest) =>
    http.post<BulkReplayResult>('/api/company/deliveries/replay', request, inCompany(companyId)),
  settings: (companyId: string) =>
    http.get<DeliverySettings>('/api/company/delivery-settings', inCompany(companyId)),
  saveSettings: (companyId: string, settings: DeliverySettings) =>
    http.patch<DeliverySettings>('/api/company/delivery-settings', settings, inCompany(companyId)),
};
