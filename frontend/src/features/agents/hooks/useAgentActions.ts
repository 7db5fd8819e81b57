import { useMemo } from 'react';
import { agentsApi } from '../../../api/agentsApi';
import type {
  AgentView,
  AgentWithSecret,
  CreateAgentRequest,
  UpdateAgentRequest,
} from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useAgentsStore } from '../../../stores/agentsStore';
import { fetchAndApply } from '../../../sync/dispatch';
import { removeAgentWithChats } from '../../../workspace/removeAgentWithChats';

/** A saved agent, and its new signing secret when the save generated one (shown once). */
export interface SavedAgent {
  agent: AgentView;
  signingSecret: string | null;
}

export interface AgentActions {
  addAgent: (request: CreateAgentRequest) => Promise<AgentView | null>;
  /** Null when the save failed (the toast says why). */
  updateAgent: (agentId: string, request: UpdateAgentRequest) => Promise<SavedAgent | null>;
  deleteAgent: (agentId: string) => Promise<boolean>;
  /** Throws: the avatar button shows the spec's upload toasts. */
  uploadAvatar: (agentId: string, file: File) => Promise<void>;
}

/** What Settings does with agents, with the spec's toasts; the answer and the event update alike. */
export function useAgentActions(): AgentActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { companyOrToast, success, failure } = toasts;
    const stillCurrent = (companyId: string) => useAgentsStore.getState().companyId === companyId;
    /** Puts a saved agent in the store (without the secret, which only the screen that asked shows). */
    const keep =
      (companyId: string) =>
      ({ signingSecret: _secret, ...agent }: AgentWithSecret) => {
        if (stillCurrent(companyId)) useAgentsStore.getState().upsertAgent(agent);
      };

    return {
      async addAgent(request) {
        const companyId = companyOrToast();
        if (!companyId) return null;
        try {
          const { signingSecret: _secret, ...agent } = await fetchAndApply(
            () => agentsApi.create(companyId, request),
            keep(companyId),
          );
          success('Agent added');
          return agent;
        } catch (error) {
          failure('Error adding agents', error);
          return null;
        }
      },

      async updateAgent(agentId, request) {
        const companyId = companyOrToast();
        if (!companyId) return null;
        try {
          const { signingSecret, ...agent } = await fetchAndApply(
            () => agentsApi.update(companyId, agentId, request),
            keep(companyId),
          );
          success('Agent updated');
          return { agent, signingSecret: signingSecret ?? null };
        } catch (error) {
          failure('Error updating agents', error);
          return null;
        }
      },

      async deleteAgent(agentId) {
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          await agentsApi.remove(companyId, agentId);
          if (stillCurrent(companyId)) removeAgentWithChats(agentId);
          success('Agent deleted');
          return true;
        } catch (error) {
          failure('Error deleting agents', error);
          return false;
        }
      },

      async uploadAvatar(agentId, file) {
        const companyId = companyOrToast();
        if (!companyId) return;
        await fetchAndApply(() => agentsApi.uploadAvatar(companyId, agentId, file), keep(companyId));
      },
    };
  }, [toasts]);
}
