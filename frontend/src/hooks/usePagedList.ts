import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { PagedList } from '../sync/pagedList';

/** Admin lists ask the server for this many rows at a time (there may be thousands). */
export const ADMIN_PAGE_SIZE = 50;

export interface PagedListLoad {
  loading: boolean;
  loadingMore: boolean;
  /** The one error policy's message of the last failed load, else null. */
  error: string | null;
  /** The rows on screen have a next page. */
  hasMore: boolean;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * Shows a `PagedList` (sync/pagedList.ts, which says how to add one) for `key`: its first page on mount
 * and whenever the key changes (another search, another company), then a page more on demand. `key` is
 * plain JSON, compared by value; null waits (no company yet). `onError` hears of each failed load.
 */
export function usePagedList<K, T>(
  list: PagedList<K, T>,
  key: K | null,
  onError?: (message: string) => void,
): PagedListLoad {
  const status = useSyncExternalStore(list.subscribe, list.getStatus);
  // The list outlives the page: what it did before this mount is not this screen's to show.
  const [mountedAt] = useState(() => list.getStatus().request);
  const keyText = JSON.stringify(key);
  const wanted = useMemo(() => JSON.parse(keyText) as K | null, [keyText]);

  const reload = useCallback(async () => {
    if (wanted === null) return;
    const message = await list.load(wanted);
    if (message) onError?.(message);
  }, [list, wanted, onError]);

  const loadMore = useCallback(async () => {
    const message = await list.loadMore();
    if (message) onError?.(message);
  }, [list, onError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const asked = status.request > mountedAt && status.key === keyText;
  return {
    loading: !asked || status.loading,
    loadingMore: asked && status.loadingMore,
    error: status.errorOf > mountedAt ? status.error : null,
    hasMore: status.hasMore,
    reload,
    loadMore,
  };
}
