import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useCompanyStore } from '../../../stores/companyStore';
import { CompanyDetailsView } from './CompanyDetailsView';

const details = {
  id: 'c1',
  name: 'Acme',
  createdAt: '2024-01-01T00:00:00Z',
  owner: { id: 'u1', name: 'Olive Owner' },
  memberCount: 3,
  agentCount: 2,
  quotas: {
    storedBytesLimit: null,
    storedBytesUsed: 0,
    messagesPerUserPerDay: 100,
    messagesPerCompanyPerMonth: null,
    messagesThisMonth: 1234,
    yourMessagesToday: 7,
  },
};

describe('Company Details: quotas', () => {
  afterEach(() => {
    useCompanyStore.getState().reset();
    vi.restoreAllMocks();
  });

  it("shows the month's messages and the viewer's own use of the per-user daily limit", async () => {
    useCompanyStore
      .getState()
      .setCompanies([{ id: 'c1', name: 'Acme', role: 'owner', createdAt: '2024-01-01T00:00:00Z' }]);
    useCompanyStore.getState().setCurrentCompany('c1');
    mockFetch((call) =>
      call.path.endsWith('/api/company/details') ? [200, details] : [404, { message: 'no such route' }],
    );
    renderWithProviders(<CompanyDetailsView />);
    const row = async (label: string) => (await screen.findByText(label)).closest('tr');
    expect(await row('Messages this month (UTC)')).toHaveTextContent('1234 (no limit)');
    expect(await row('Your messages today (UTC), per-user daily limit')).toHaveTextContent('7 / 100');
  });
});
