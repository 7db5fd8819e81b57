import type { BootstrapQuery, BootstrapResponse } from './contracts';
import { http } from './httpClient';
import { withQuery } from './query';

export const bootstrapApi = {
  /** The signed-in shell (profile, companies) and, with `chat`, the chat screen's opening data. */
  get: ({ companyId, chat }: BootstrapQuery) =>
    http.get<BootstrapResponse>(withQuery('/api/bootstrap', { companyId, chat })),
};
