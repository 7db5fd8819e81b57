import type { PlatformAgentView } from '@contracts/platform-admin';
import { create } from 'zustand';
import { usePagedList, type PagedListLoad, type PagedSource } from '../../../hooks/usePagedList';
import { agentsApi } from './agentsApi';

/** Platform Admin → Agents' rows (read-only: no live updates). */
const useAgentRows = create<{ agents: PlatformAgentView[]; nextCursor: string | null }>(() => ({
  agents: [],
  nextCursor: null,
}));

const agents: PagedSource<string | null, PlatformAgentView> = {
  fetch: async (companyId, cursor, limit) => {
    const page = await agentsApi.list({ companyId, cursor, limit });
    return { items: page.agents, nextCursor: page.nextCursor };
  },
  setFirstPage: (_companyId, page) =>
    useAgentRows.setState({ agents: page.items, nextCursor: page.nextCursor }),
  appendPage: (page) =>
    useAgentRows.setState(({ agents: current }) => {
      const seen = new Set(current.map((a) => a.id));
      return {
        agents: [...current, ...page.items.filter((a) => !seen.has(a.id))],
        nextCursor: page.nextCursor,
      };
    }),
  nextCursor: () => useAgentRows.getState().nextCursor,
};

export interface AgentList extends PagedListLoad {
  agents: PlatformAgentView[];
  hasMore: boolean;
}

/** Every agent, newest first, a page at a time; `companyId` narrows to one company. */
export function useAgentList(companyId: string | null, onError?: (message: string) => void): AgentList {
  const load = usePagedList(agents, companyId, onError);
  const { agents: rows, nextCursor } = useAgentRows();
  return { ...load, agents: rows, hasMore: nextCursor !== null };
}
