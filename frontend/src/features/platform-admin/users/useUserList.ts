import { useCallback, useEffect, useRef, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { usersApi } from './usersApi';
import { usePlatformUsersStore } from './usersStore';

export const USERS_PAGE_SIZE = 50;

export interface UserListLoad {
  loading: boolean;
  loadingMore: boolean;
  /** The one error policy's message of the last failed load, else null. */
  error: string | null;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * User Management's rows for a search, a page at a time (the server searches and pages: there may be
 * thousands of accounts). A newer search wins over the answer of an older one.
 */
export function useUserList(search: string, onError?: (message: string) => void): UserListLoad {
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);

  const reload = useCallback(async () => {
    const id = ++request.current;
    setLoading(true);
    try {
      const page = await usersApi.list({ search, limit: USERS_PAGE_SIZE });
      if (id !== request.current) return;
      usePlatformUsersStore.getState().setFirstPage(search, page.users, page.nextCursor);
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
    const { nextCursor } = usePlatformUsersStore.getState();
    if (!nextCursor) return;
    const id = request.current;
    setLoadingMore(true);
    try {
      const page = await usersApi.list({ search, cursor: nextCursor, limit: USERS_PAGE_SIZE });
      if (id !== request.current) return;
      usePlatformUsersStore.getState().appendPage(page.users, page.nextCursor);
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
