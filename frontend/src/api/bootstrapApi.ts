import type { BootstrapQuery, BootstrapResponse } from './contracts';
import { http } from './httpClient';

export const bootstrapApi = {
  /** The signed-in shell (profile, companies) and, with `chat`, the chat screen's opening data. */
  get: ({ companyId, chat }: BootstrapQuery) => {
    const params = new URLSearchParams();
    if (companyId) params.set('companyId', companyId);
    if (chat) params.set('chat', 'true');
    const query = params.toString();
    return http.get<BootstrapResponse>(`/api/bootstrap${query ? `?${query}` : ''}`);
  },
};
