import type { PlatformAgentView } from '@contracts/platform-admin';
import { create } from 'zustand';
import { ADMIN_PAGE_SIZE, usePagedList, type PagedListLoad } from '../../../hooks/usePagedList';
import { appendNew } from '../../../stores/listRows';
import { PagedList } from '../../../sync/pagedList';
import { agentsApi } from './agentsApi';

/** Platform Admin → Agents' rows (read-only: no live updates). */
const useAgentRows = create<{ agents: PlatformAgentView[] }>(() => ({ agents: [] }));

/** Every agent, newest first; a company filter narrows it to one company (not a company scope). */
const agents = new PagedList<{ companyId: string | null }, PlatformAgentView>({
  fetch: async ({ companyId }, cursor) => {
    const page = await agentsApi.list({ companyId, cursor, limit: ADMIN_PAGE_SIZE });
    return { items: page.agents, nextCursor: page.nextCursor };
  },
  setFirstPage: (_filter, page) => useAgentRows.setState({ agents: page.items }),
  appendPage: (_filter, page) =>
    useAgentRows.setState(({ agents: rows }) => ({ agents: appendNew(rows, page.items, (a) => a.id) })),
});

export interface AgentList extends PagedListLoad {
  agents: PlatformAgentView[];
}

/** Every agent, newest first, a page at a time; `companyId` narrows to one company. */
export function useAgentList(companyId: string | null, onError?: (message: string) => void): AgentList {
  const load = usePagedList(agents, { companyId }, onError);
  const rows = useAgentRows((s) => s.agents);
  return { ...load, agents: rows };
}
