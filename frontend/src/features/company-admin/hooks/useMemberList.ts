import { useCallback, useEffect, useRef, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useCompanyStore } from '../../../stores/companyStore';
import { adminLoaders, loadMoreMembers } from '../companyAdminSync';

export interface MemberListLoad {
  loading: boolean;
  loadingMore: boolean;
  /** The one error policy's message of the last failed load, else null. */
  error: string | null;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * Company Users for the current company and a search, paged by the server (a company may have
 * thousands of members): the first page on mount, on a company switch and on a new search, then a page
 * more on demand. The rows are in the company admin store, where live events update them too.
 */
export function useMemberList(search: string, onError?: (message: string) => void): MemberListLoad {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);
  const fetchingMore = useRef(false);

  const reload = useCallback(async () => {
    if (!companyId) return;
    const id = ++request.current;
    setLoading(true);
    try {
      await adminLoaders.members(companyId, search);
      if (id === request.current) setError(null);
    } catch (cause) {
      if (id !== request.current) return;
      const message = getErrorMessage(cause);
      setError(message);
      onError?.(message);
    } finally {
      if (id === request.current) setLoading(false);
    }
  }, [companyId, search, onError]);

  const loadMore = useCallback(async () => {
    if (!companyId || fetchingMore.current) return;
    fetchingMore.current = true;
    setLoadingMore(true);
    try {
      await loadMoreMembers(companyId);
    } catch (cause) {
      onError?.(getErrorMessage(cause));
    } finally {
      fetchingMore.current = false;
      setLoadingMore(false);
    }
  }, [companyId, onError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { loading, loadingMore, error, reload, loadMore };
}
