import { useCallback, useEffect, useRef, useState } from 'react';
import { getErrorMessage } from '../api/errors';

/** Admin lists ask the server for this many rows at a time (there may be thousands). */
export const ADMIN_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Where a paged list comes from and where its rows go (a zustand store, so live events can update the
 * rows too). Keep it at module level: the hook reloads when `query` changes, not when the source does.
 */
export interface PagedSource<Q, T> {
  fetch(query: Q, cursor: string | null, limit: number): Promise<Page<T>>;
  setFirstPage(query: Q, page: Page<T>): void;
  appendPage(page: Page<T>): void;
  nextCursor(): string | null;
}

export interface PagedListLoad {
  loading: boolean;
  loadingMore: boolean;
  /** The one error policy's message of the last failed load, else null. */
  error: string | null;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * A server-paged list for a query (a search, a company filter): the first page on mount and whenever the
 * query changes, then a page more on demand. The answer to an older query never replaces a newer one.
 */
export function usePagedList<Q, T>(
  source: PagedSource<Q, T>,
  query: Q,
  onError?: (message: string) => void,
): PagedListLoad {
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);

  const reload = useCallback(async () => {
    const id = ++request.current;
    setLoading(true);
    try {
      const page = await source.fetch(query, null, ADMIN_PAGE_SIZE);
      if (id !== request.current) return;
      source.setFirstPage(query, page);
      setError(null);
    } catch (cause) {
      if (id !== request.current) return;
      const message = getErrorMessage(cause);
      setError(message);
      onError?.(message);
    } finally {
      if (id === request.current) setLoading(false);
    }
  }, [source, query, onError]);

  const loadMore = useCallback(async () => {
    const cursor = source.nextCursor();
    if (!cursor) return;
    const id = request.current;
    setLoadingMore(true);
    try {
      const page = await source.fetch(query, cursor, ADMIN_PAGE_SIZE);
      if (id !== request.current) return;
      source.appendPage(page);
    } catch (cause) {
      if (id === request.current) onError?.(getErrorMessage(cause));
    } finally {
      setLoadingMore(false);
    }
  }, [source, query, onError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { loading, loadingMore, error, reload, loadMore };
}
