import { useMemo } from 'react';
import { companiesApi } from '../../../api/companiesApi';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useCompanyStore } from '../../../stores/companyStore';

export interface CompanyActions {
  /** Creates a company and switches to it; false when it failed (the toast says why). */
  createCompany: (name: string) => Promise<boolean>;
  /** Loads the company and the user's role in it, makes it current and remembers it for this browser. */
  switchCompany: (companyId: string) => Promise<void>;
}

/** What the user menu does with companies, with the spec's toasts. */
export function useCompanyActions(): CompanyActions {
  const { success, failure, refusal } = useActionToasts();

  return useMemo(
    () => ({
      async createCompany(name) {
        try {
          const company = await companiesApi.create(name);
          const store = useCompanyStore.getState();
          store.upsertCompany(company);
          store.setCurrentCompany(company.id);
          success('Company created', 'You are now the owner of your new company.');
          return true;
        } catch (error) {
          failure('Failed to create company', error, 'Please try again later.');
          return false;
        }
      },

      async switchCompany(companyId) {
        try {
          const company = await companiesApi.get(companyId);
          const store = useCompanyStore.getState();
          store.upsertCompany(company);
          store.setCurrentCompany(company.id);
          success('Company switched', `You are now viewing ${company.name}`);
        } catch {
          // The spec's own wording for this failure, whatever the cause.
          refusal('Error', 'Failed to switch company. Please try again.');
        }
      },
    }),
    [success, failure, refusal],
  );
}
