import type { PlatformAgentView } from '@contracts/platform-admin';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { agentsApi } from './agentsApi';

export const AGENTS_PAGE_SIZE = 50;

export interface AgentList {
  agents: PlatformAgentView[];
  hasMore: boolean;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

/** Every agent, newest first, a page at a time; `companyId` narrows to one company. Read-only. */
export function useAgentList(companyId: string | null, onError?: (message: string) => void): AgentList {
  const [agents, setAgents] = useState<PlatformAgentView[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useRef(0);

  const reload = useCallback(async () => {
    const id = ++request.current;
    setLoading(true);
    try {
      const page = await agentsApi.list({ companyId, limit: AGENTS_PAGE_SIZE });
      if (id !== request.current) return;
      setAgents(page.agents);
      setCursor(page.nextCursor);
      setError(null);
    } catch (cause) {
      if (id !== request.current) return;
      const message = getErrorMessage(cause);
      setError(message);
      onError?.(message);
    } finally {
      if (id === request.current) setLoading(false);
    }
  }, [companyId, onError]);

  const loadMore = useCallback(async () => {
    if (!cursor) return;
    const id = request.current;
    setLoadingMore(true);
    try {
      const page = await agentsApi.list({ companyId, cursor, limit: AGENTS_PAGE_SIZE });
      if (id !== request.current) return;
      setAgents((current) => {
        const seen = new Set(current.map((a) => a.id));
        return [...current, ...page.agents.filter((a) => !seen.has(a.id))];
      });
      setCursor(page.nextCursor);
    } catch (cause) {
      if (id === request.current) onError?.(getErrorMessage(cause));
    } finally {
      setLoadingMore(false);
    }
  }, [companyId, cursor, onError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { agents, hasMore: cursor !== null, loading, loadingMore, error, reload, loadMore };
}
