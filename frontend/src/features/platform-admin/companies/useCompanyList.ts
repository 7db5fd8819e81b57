import { useCallback, useEffect, useRef, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { companiesApi } from './companiesApi';
import { usePlatformCompaniesStore } from './companiesStore';

export const COMPANIES_PAGE_SIZE = 50;

export interface CompanyListLoad {
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/** Company Management's rows for a search, a page at a time; a newer search wins over an older answer. */
export function useCompanyList(search: string, onError?: (message: string) => void): CompanyListLoad {
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);

  const reload = useCallback(async () => {
    const id = ++request.current;
    setLoading(true);
    try {
      const page = await companiesApi.list({ search, limit: COMPANIES_PAGE_SIZE });
      if (id !== request.current) return;
      usePlatformCompaniesStore.getState().setFirstPage(search, page.companies, page.nextCursor);
      setError(null);
    } catch (cause) {
      if (id !== request.current) return;
      const message = getErrorMessage(cause);
      setError(message);
      onError?.(message);
    } finally {
      if (id === request.current) setLoading(false);
    }
  }, [search, onError]);

  const loadMore = useCallback(async () => {
    const { nextCursor } = usePlatformCompaniesStore.getState();
    if (!nextCursor) return;
    const id = request.current;
    setLoadingMore(true);
    try {
      const page = await companiesApi.list({ search, cursor: nextCursor, limit: COMPANIES_PAGE_SIZE });
      if (id !== request.current) return;
      usePlatformCompaniesStore.getState().appendPage(page.companies, page.nextCursor);
    } catch (cause) {
      if (id === request.current) onError?.(getErrorMessage(cause));
    } finally {
      setLoadingMore(false);
    }
  }, [search, onError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { loading, loadingMore, error, reload, loadMore };
}
