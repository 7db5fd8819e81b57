import type { PlatformCompanyDetails, PlatformCompanyMemberView } from '@contracts/platform-admin';
import { useEffect, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { companiesApi } from './companiesApi';

export interface CompanyViewLoad<T> {
  data: T | null;
  loading: boolean;
  error: string | null;
}

function useCompanyRead<T>(companyId: string | null, read: (id: string) => Promise<T>): CompanyViewLoad<T> {
  const [state, setState] = useState<CompanyViewLoad<T>>({ data: null, loading: false, error: null });
  useEffect(() => {
    if (!companyId) {
      setState({ data: null, loading: false, error: null });
      return;
    }
    let current = true;
    setState({ data: null, loading: true, error: null });
    read(companyId).then(
      (data) => current && setState({ data, loading: false, error: null }),
      (cause: unknown) => current && setState({ data: null, loading: false, error: getErrorMessage(cause) }),
    );
    return () => {
      current = false;
    };
  }, [companyId, read]);
  return state;
}

/** View Details: the company with its owner and its member, agent and chat counts. */
export function useCompanyDetails(companyId: string | null): CompanyViewLoad<PlatformCompanyDetails> {
  return useCompanyRead(companyId, companiesApi.details);
}

/** Manage Users: the company's members with their roles. */
export function useCompanyMembers(companyId: string | null): CompanyViewLoad<PlatformCompanyMemberView[]> {
  return useCompanyRead(companyId, companiesApi.members);
}
