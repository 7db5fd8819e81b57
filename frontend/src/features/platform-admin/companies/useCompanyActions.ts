import type { PlatformCompanyView } from '@contracts/platform-admin';
import { useMemo } from 'react';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { companiesApi } from './companiesApi';
import { usePlatformCompaniesStore } from '../../../stores/platformCompaniesStore';

export interface CompanyActions {
  create: (name: string, ownerEmail: string) => Promise<boolean>;
  remove: (company: PlatformCompanyView) => Promise<boolean>;
  disableSso: (company: PlatformCompanyView) => Promise<boolean>;
}

/** Add Company, Delete and Turn off SSO on Company Management. */
export function useCompanyActions(): CompanyActions {
  const toasts = useActionToasts();
  return useMemo(() => {
    const { success, failure } = toasts;
    return {
      async create(name, ownerEmail) {
        try {
          const created = await companiesApi.create({ name: name.trim(), ownerEmail: ownerEmail.trim() });
          usePlatformCompaniesStore.getState().addCompany(created);
          success(
            'Company created',
            `${created.name} is owned by ${created.owner?.email ?? ownerEmail.trim()}.`,
          );
          return true;
        } catch (error) {
          failure('Failed to create company', error, 'Please try again later.');
          return false;
        }
      },
      async remove(company) {
        try {
          await companiesApi.remove(company.id);
          usePlatformCompaniesStore.getState().removeCompany(company.id);
          success('Company deleted', `${company.name} and everything it owned were removed.`);
          return true;
        } catch (error) {
          failure('Failed to delete company', error, 'Please try again later.');
          return false;
        }
      },
      async disableSso(company) {
        try {
          await companiesApi.disableSso(company.id);
          usePlatformCompaniesStore.getState().markSsoOff(company.id);
          success('Single sign-on turned off', `${company.name} now signs in with passwords and Google.`);
          return true;
        } catch (error) {
          failure('Failed to turn off single sign-on', error, 'Please try again later.');
          return false;
        }
      },
    };
  }, [toasts]);
}
