import { afterEach, describe, expect, it } from 'vitest';
import type { CompanyMembership } from '../api/contracts';
import { CURRENT_COMPANY_STORAGE_KEY, selectCurrentCompany, useCompanyStore } from './companyStore';

const companies: CompanyMembership[] = [
  { id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
  { id: 'c2', name: 'Second', role: 'user', createdAt: '2024-01-02T00:00:00Z' },
];

describe('company store', () => {
  afterEach(() => useCompanyStore.getState().reset());

  it('restores the company this browser last used when the user is still a member', () => {
    localStorage.setItem(CURRENT_COMPANY_STORAGE_KEY, 'c2');
    useCompanyStore.getState().setCompanies(companies);
    expect(selectCurrentCompany(useCompanyStore.getState())?.name).toBe('Second');
  });

  it('falls back to the first company when the stored one is no longer a membership', () => {
    localStorage.setItem(CURRENT_COMPANY_STORAGE_KEY, 'gone');
    useCompanyStore.getState().setCompanies(companies);
    expect(useCompanyStore.getState().currentCompanyId).toBe('c1');
    expect(localStorage.getItem(CURRENT_COMPANY_STORAGE_KEY)).toBe('c1');
  });

  it('remembers a switch for the next visit', () => {
    useCompanyStore.getState().setCompanies(companies);
    useCompanyStore.getState().setCurrentCompany('c2');
    expect(localStorage.getItem(CURRENT_COMPANY_STORAGE_KEY)).toBe('c2');
  });
});
