import type { PlatformCompanyView } from '@contracts/platform-admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userView } from '../../../test/fixtures';
import { mockFetch, type MockAnswer, type RecordedCall } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useSessionStore } from '../../../stores/sessionStore';
import { usePlatformCompaniesStore } from '../../../stores/platformCompaniesStore';
import { localDate, PlatformCompanies } from './PlatformCompanies';

const acme: PlatformCompanyView = {
  id: 'c1',
  name: 'Acme',
  userCount: 3,
  usesSso: false,
  createdAt: '2024-02-01T10:00:00.000Z',
};

function serve(extra: (call: RecordedCall) => MockAnswer | undefined = () => undefined): RecordedCall[] {
  return mockFetch((call) => {
    const answered = extra(call);
    if (answered) return answered;
    if (call.method === 'GET' && call.path.startsWith('/api/admin/companies?'))
      return [200, { companies: [acme], nextCursor: null }];
    return [404, { message: 'no such route in this test' }];
  });
}

describe('PlatformCompanies', { timeout: 20_000 }, () => {
  beforeEach(() => {
    useSessionStore.setState({ status: 'authenticated', user: userView({ id: 'u1', isSuperadmin: true }) });
    usePlatformCompaniesStore.setState({ companies: [], nextCursor: null, loaded: false, search: '' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    useSessionStore.setState({ status: 'idle', user: null });
  });

  it("shows each company's name, '{n} users' and its local creation date", async () => {
    serve();
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    expect(screen.getByRole('heading', { name: 'Company Management' })).toBeInTheDocument();
    const row = (await screen.findByText('Acme')).closest('tr') as HTMLElement;
    expect(within(row).getByText('3 users')).toBeInTheDocument();
    expect(within(row).getByText(localDate(acme.createdAt))).toBeInTheDocument();
  });

  it('shows the details: members, agents and chats', async () => {
    serve((call) =>
      call.path === '/api/admin/companies/c1'
        ? [
            200,
            {
              ...acme,
              owner: { id: 'u7', name: 'Olive Owner', email: 'olive@example.com' },
              memberCount: 3,
              agentCount: 4,
              chatCount: 12,
            },
          ]
        : undefined,
    );
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Acme' }));
    await user.click(await screen.findByText('View Details'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Olive Owner (olive@example.com)')).toBeInTheDocument();
    expect(within(dialog).getByText('Chats').closest('tr')).toHaveTextContent('12');
    expect(within(dialog).getByText('Agents').closest('tr')).toHaveTextContent('4');
  });

  const noQuotas = {
    storedBytesLimit: null,
    storedBytesUsed: 3 * 1024 * 1024,
    messagesPerUserPerDay: null,
    messagesPerCompanyPerMonth: null,
    messagesThisMonth: 42,
    yourMessagesToday: null,
  };
  const details = { ...acme, owner: null, memberCount: 1, agentCount: 0, chatCount: 0, quotas: noQuotas };

  it('shows the file storage used / limit and saves a new limit in MB', async () => {
    const calls = serve((call) => {
      if (call.method === 'GET' && call.path === '/api/admin/companies/c1') return [200, details];
      if (call.method === 'PATCH' && call.path === '/api/admin/companies/c1/quotas')
        return [200, { ...noQuotas, storedBytesLimit: 50 * 1024 * 1024 }];
      return undefined;
    });
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Acme' }));
    await user.click(await screen.findByText('View Details'));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByText('File storage')).closest('tr')).toHaveTextContent(
      '3 MB (no limit)',
    );
    await user.type(within(dialog).getByLabelText('Storage limit (MB, empty for no limit)'), '50');
    await user.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    await waitFor(() =>
      expect(within(dialog).getByText('File storage').closest('tr')).toHaveTextContent('3 MB / 50 MB'),
    );
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({
      storedBytesLimit: 50 * 1024 * 1024,
      messagesPerUserPerDay: null,
      messagesPerCompanyPerMonth: null,
    });
  });

  it('shows the message use and saves the message limits', async () => {
    const calls = serve((call) => {
      if (call.method === 'GET' && call.path === '/api/admin/companies/c1') return [200, details];
      if (call.method === 'PATCH' && call.path === '/api/admin/companies/c1/quotas')
        return [200, { ...noQuotas, messagesPerUserPerDay: 100, messagesPerCompanyPerMonth: 5000 }];
      return undefined;
    });
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Acme' }));
    await user.click(await screen.findByText('View Details'));
    const dialog = await screen.findByRole('dialog');
    const row = async (label: string) => (await within(dialog).findByText(label)).closest('tr');
    expect(await row('Messages this month (UTC)')).toHaveTextContent('42 (no limit)');
    expect(await row('Messages per user per day (UTC)')).toHaveTextContent('No limit');

    const perDay = within(dialog).getByLabelText('Messages per user per day (UTC, empty for no limit)');
    const perMonth = within(dialog).getByLabelText(
      'Messages per company per month (UTC, empty for no limit)',
    );
    await user.type(perDay, '100');
    await user.type(perMonth, '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    await waitFor(async () => expect(await row('Messages this month (UTC)')).toHaveTextContent('42 / 5000'));
    expect(await row('Messages per user per day (UTC)')).toHaveTextContent('100');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      storedBytesLimit: null,
      messagesPerUserPerDay: 100,
      messagesPerCompanyPerMonth: 5000,
    });
  });

  it('asks before deleting, naming the company, then removes its row', async () => {
    const calls = serve((call) => (call.method === 'DELETE' ? [204] : undefined));
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Acme' }));
    await user.click(await screen.findByText('Delete'));
    // The confirmation names the company.
    const dialog = await screen.findByRole('dialog', { name: 'Delete Acme?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Company deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/admin/companies/c1')).toBe(true);
    await waitFor(() => expect(screen.getByRole('table')).not.toHaveTextContent('Acme'));
  });

  it('shows which companies use SSO and turns it off for one after asking', async () => {
    const calls = mockFetch((call) => {
      if (call.method === 'POST' && call.path === '/api/admin/companies/c1/sso/disable') return [204];
      if (call.method === 'GET' && call.path.startsWith('/api/admin/companies?'))
        return [200, { companies: [{ ...acme, usesSso: true }], nextCursor: null }];
      return [404, { message: 'no such route in this test' }];
    });
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    const user = userEvent.setup();
    const row = (await screen.findByText('Acme')).closest('tr') as HTMLElement;
    expect(within(row).getByText('SSO')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Actions for Acme' }));
    await user.click(await screen.findByText('Turn off SSO'));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off single sign-on for Acme?' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn off SSO' }));
    expect(await screen.findByText('Single sign-on turned off')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/sso/disable'))).toBe(true);
    await waitFor(() => expect(within(row).queryByText('SSO')).not.toBeInTheDocument());
  });

  it("refuses an owner without an account with the server's words", async () => {
    serve((call) =>
      call.method === 'POST' ? [404, { error: 'NOT_FOUND', message: 'No user with that email' }] : undefined,
    );
    renderWithProviders(<PlatformCompanies />, { path: '/admin/companies' });
    const user = userEvent.setup();
    await screen.findByText('Acme');
    await user.click(screen.getByRole('button', { name: /Add Company/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Company' });
    await user.type(within(dialog).getByLabelText('Company Name'), 'Globex');
    await user.type(within(dialog).getByLabelText('Owner Email'), 'nobody@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Company' }));
    expect(await screen.findByText('Failed to create company')).toBeInTheDocument();
    expect(screen.getByText('No user with that email')).toBeInTheDocument();
  });
});
