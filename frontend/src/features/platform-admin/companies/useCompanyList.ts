import type { PlatformCompanyView } from '@contracts/platform-admin';
import { usePagedList, type PagedListLoad, type PagedSource } from '../../../hooks/usePagedList';
import { companiesApi } from './companiesApi';
import { usePlatformCompaniesStore } from '../../../stores/platformCompaniesStore';

const companies: PagedSource<string, PlatformCompanyView> = {
  fetch: async (search, cursor, limit) => {
    const page = await companiesApi.list({ search, cursor, limit });
    return { items: page.companies, nextCursor: page.nextCursor };
  },
  setFirstPage: (search, page) =>
    usePlatformCompaniesStore.getState().setFirstPage(search, page.items, page.nextCursor),
  appendPage: (page) => usePlatformCompaniesStore.getState().appendPage(page.items, page.nextCursor),
  nextCursor: () => usePlatformCompaniesStore.getState().nextCursor,
};

/** Company Management's rows for a search, a page at a time; the rows are in the companies store. */
export function useCompanyList(search: string, onError?: (message: string) => void): PagedListLoad {
  return usePagedList(companies, search, onError);
}
