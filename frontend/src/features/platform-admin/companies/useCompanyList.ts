import type { PlatformCompanyView } from '@contracts/platform-admin';
import { ADMIN_PAGE_SIZE, usePagedList, type PagedListLoad } from '../../../hooks/usePagedList';
import { PagedList } from '../../../sync/pagedList';
import { companiesApi } from './companiesApi';
import { usePlatformCompaniesStore } from '../../../stores/platformCompaniesStore';

/** Company Management's rows for a search (newest first); they are in the companies store. */
const companies = new PagedList<string, PlatformCompanyView>({
  fetch: async (search, cursor) => {
    const page = await companiesApi.list({ search, cursor, limit: ADMIN_PAGE_SIZE });
    return { items: page.companies, nextCursor: page.nextCursor };
  },
  setFirstPage: (search, page) =>
    usePlatformCompaniesStore.getState().setFirstPage(search, page.items, page.nextCursor),
  appendPage: (_search, page) => usePlatformCompaniesStore.getState().appendPage(page.items, page.nextCursor),
});

/** Company Management's rows for a search, a page at a time. */
export function useCompanyList(search: string, onError?: (message: string) => void): PagedListLoad {
  return usePagedList(companies, search, onError);
}
