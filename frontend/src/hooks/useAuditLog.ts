import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditEntryView, AuditPage } from '../api/contracts';
import { getErrorMessage } from '../api/errors';

export type AuditPageLoader = (before: string | null) => Promise<AuditPage>;

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
 * An audit log read newest first, a page at a time by cursor. A new `load` (other filters, another
 * company) starts again from the newest entry; an answer to an older request is dropped.
 */
export function useAuditLog(load: AuditPageLoader | null): AuditLog {
  const [entries, setEntries] = useState<AuditEntryView[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);

  const reload = useCallback(async () => {
    if (!load) return;
    const id = ++request.current;
    setLoading(true);
    setError(null);
    try {
      const page = await load(null);
      if (id !== request.current) return;
      setEntries(page.entries);
      setCursor(page.nextCursor);
    } catch (cause) {
      if (id !== request.current) return;
      setEntries([]);
      setCursor(null);
      setError(getErrorMessage(cause));
    } finally {
      if (id === request.current) setLoading(false);
    }
  }, [load]);

  const loadMore = useCallback(async () => {
    if (!load || !cursor) return;
    const id = request.current;
    setLoadingMore(true);
    try {
      const page = await load(cursor);
      if (id !== request.current) return;
      setEntries((current) => [...current, ...page.entries]);
      setCursor(page.nextCursor);
      setError(null);
    } catch (cause) {
      if (id === request.current) setError(getErrorMessage(cause));
    } finally {
      setLoadingMore(false);
    }
  }, [load, cursor]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { entries, hasMore: cursor !== null, loading, loadingMore, error, reload, loadMore };
}
