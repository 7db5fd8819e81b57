import { create } from 'zustand';
import type { AgentView } from '../api/contracts';

interface AgentsState {
  /** The company these agents belong to; events and late answers for another company are dropped. */
  companyId: string | null;
  agents: AgentView[];
  loaded: boolean;
  /** The agent the chat screen talks to (the active chat's agent, or the one clicked in the sidebar). */
  selectedAgentId: string | null;
  reset: (companyId: string | null) => void;
  setAgents: (agents: AgentView[]) => void;
  upsertAgent: (agent: AgentView) => void;
  removeAgent: (agentId: string) => void;
  selectAgent: (agentId: string | null) => void;
}

/** The selection holds only while its agent exists and is active (a deleted or deactivated one leaves it). */
function keptSelection(selectedAgentId: string | null, agents: AgentView[]): string | null {
  return agents.some((a) => a.id === selectedAgentId && a.isActive) ? selectedAgentId : null;
}

export const useAgentsStore = create<AgentsState>((set, get) => ({
  companyId: null,
  agents: [],
  loaded: false,
  selectedAgentId: null,
  reset(companyId) {
    set({ companyId, agents: [], loaded: false, selectedAgentId: null });
  },
  setAgents(agents) {
    set({ agents, loaded: true, selectedAgentId: keptSelection(get().selectedAgentId, agents) });
  },
  upsertAgent(agent) {
    const current = get().agents;
    const exists = current.some((a) => a.id === agent.id);
    const agents = exists ? current.map((a) => (a.id === agent.id ? agent : a)) : [...current, agent];
    set({ agents, selectedAgentId: keptSelection(get().selectedAgentId, agents) });
  },
  removeAgent(agentId) {
    set({
      agents: get().agents.filter((a) => a.id !== agentId),
      selectedAgentId: get().selectedAgentId === agentId ? null : get().selectedAgentId,
    });
  },
  selectAgent(selectedAgentId) {
    set({ selectedAgentId });
  },
}));

export function findAgent(agents: AgentView[], id: string | null | undefined): AgentView | null {
  return (id && agents.find((a) => a.id === id)) || null;
}
