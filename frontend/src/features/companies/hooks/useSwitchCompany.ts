import { App } from 'antd';
import { useCallback } from 'react';
import { companiesApi } from '../../../api/companiesApi';
import { useCompanyStore } from '../../../stores/companyStore';

/** Loads the company and the user's role in it, makes it current and remembers it for this browser. */
export function useSwitchCompany(): (companyId: string) => Promise<void> {
  const { notification } = App.useApp();
  return useCallback(
    async (companyId: string) => {
      try {
        const company = await companiesApi.get(companyId);
        const store = useCompanyStore.getState();
        store.upsertCompany(company);
        store.setCurrentCompany(company.id);
        notification.success({
          title: 'Company switched',
          description: `You are now viewing ${company.name}`,
        });
      } catch {
        notification.error({ title: 'Error', description: 'Failed to switch company. Please try again.' });
      }
    },
    [notification],
  );
}
