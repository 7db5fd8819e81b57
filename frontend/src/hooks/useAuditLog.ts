import { useCallback, useState } from 'react';
import type { AuditFilter } from '../api/auditApi';
import type { AuditEntryView, AuditPage } from '../api/contracts';
import { PagedList } from '../sync/pagedList';
import { usePagedList } from './usePagedList';

/** One page of a log with these filters, newest first, older than `before` (null: the newest). */
export type AuditPageFetcher = (filter: AuditFilter, before: string | null) => Promise<AuditPage>;

export interface AuditLog {
  entries: AuditEntryView[];
  /** More, older entries exist. */
  hasMore: boolean;
  loading: boolean;
  loadingMore: boolean;
  /** The one error policy's message of the last failed load, else null. */
  error: string | null;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/**
 * An audit log read newest first, a page at a time by cursor, through the one list primitive
 * (sync/pagedList.ts): other filters start again from the newest entry, and an answer to an older
 * request is dropped. The rows are the screen's own (no live events change a log already written).
 * `fetchPage` is read once: a table for another company is a new mount.
 */
export function useAuditLog(fetchPage: AuditPageFetcher, filter: AuditFilter): AuditLog {
  const [entries, setEntries] = useState<AuditEntryView[]>([]);
  /** A failed 'Load more' (the rows stay); cleared by the next page that comes. */
  const [moreError, setMoreError] = useState<string | null>(null);
  const [list] = useState(
    () =>
      new PagedList<AuditFilter, AuditEntryView>({
        fetch: async (key, cursor) => {
          const page = await fetchPage(key, cursor);
          return { items: page.entries, nextCursor: page.nextCursor };
        },
        setFirstPage: (_key, page) => {
          setEntries(page.items);
          setMoreError(null);
        },
        appendPage: (_key, page) => {
          setEntries((current) => [...current, ...page.items]);
          setMoreError(null);
        },
      }),
  );
  const onError = useCallback((message: string) => setMoreError(message), []);
  const load = usePagedList(list, filter, onError);
  return {
    // A first page that failed shows no rows of an earlier filter, only the error and its retry.
    entries: load.error ? [] : entries,
    hasMore: !load.error && load.hasMore,
    loading: load.loading,
    loadingMore: load.loadingMore,
    // A retry under way shows its spinner, not the failure it retries.
    error: load.loading ? null : (load.error ?? moreError),
    reload: load.reload,
    loadMore: load.loadMore,
  };
}
