import type { ChatExportFormat, SearchPage } from '@contracts/search';
import { inCompany } from '../../api/companyScope';
import { http } from '../../api/httpClient';

export const searchApi = {
  /** The caller's own messages in the company that match `q`, best first; `cursor` for the next page. */
  search: (companyId: string, q: string, cursor?: string | null) => {
    const params = new URLSearchParams({ q });
    if (cursor) params.set('cursor', cursor);
    return http.get<SearchPage>(`/api/search?${params.toString()}`, inCompany(companyId));
  },
  /** A chat's export: the Markdown text, the JSON document parsed, or the ZIP as a Blob. */
  exportChat: (companyId: string, chatId: string, format: ChatExportFormat) =>
    http.get<unknown>(`/api/chats/${encodeURIComponent(chatId)}/export?format=${format}`, {
      ...inCompany(companyId),
      binary: format === 'zip',
    }),
};
