import { useMemo } from 'react';
import { companyAdminApi } from '../../../api/companyAdminApi';
import type { CompanyAgentView, CreateCompanyAgentRequest } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useCompanyStore } from '../../../stores/companyStore';
import { fetchAndApply } from '../../../sync/dispatch';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';

export interface CompanyAdminActions {
  renameCompany: (name: string) => Promise<boolean>;
  createAgent: (request: CreateCompanyAgentRequest) => Promise<boolean>;
  setAgentActive: (agent: CompanyAgentView, isActive: boolean) => Promise<void>;
}

/** Company Settings and Company Agents: rename, create an agent, switch one on or off. */
export function useCompanyAdminActions(): CompanyAdminActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { companyOrToast, success, failure } = toasts;
    const isCurrent = (companyId: string) => useCompanyAdminStore.getState().companyId === companyId;
    const keepAgent = (companyId: string) => (agent: CompanyAgentView) => {
      if (isCurrent(companyId)) useCompanyAdminStore.getState().upsertAgent(agent);
    };
    return {
      async renameCompany(name) {
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          const details = await fetchAndApply(
            () => companyAdminApi.rename(companyId, name),
            (saved) => {
              if (isCurrent(companyId)) useCompanyAdminStore.getState().setDetails(saved);
            },
          );
          useCompanyStore.getState().renameCompany(companyId, details.name);
          success('Company updated', `The company is now named ${details.name}.`);
          return true;
        } catch (error) {
          failure('Failed to update company', error, 'Please try again later.');
          return false;
        }
      },

      async createAgent(request) {
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          await fetchAndApply(() => companyAdminApi.createAgent(companyId, request), keepAgent(companyId));
          success('Agent created');
          return true;
        } catch (error) {
          failure('Failed to create agent', error, 'Please try again later.');
          return false;
        }
      },

      async setAgentActive(agent, isActive) {
        const companyId = companyOrToast();
        if (!companyId) return;
        try {
          await fetchAndApply(
            () => companyAdminApi.setAgentActive(companyId, agent.id, isActive),
            keepAgent(companyId),
          );
          success('Agent updated', `${agent.name} is now ${isActive ? 'active' : 'inactive'}.`);
        } catch (error) {
          failure('Error updating agents', error);
        }
      },
    };
  }, [toasts]);
}
