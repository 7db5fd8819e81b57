import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SsoSettingsView } from '../../../api/contracts';
import { useCompanyStore } from '../../../stores/companyStore';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { CompanySettings } from './CompanySettings';

const empty: SsoSettingsView = {
  enabled: false,
  issuer: null,
  clientId: null,
  hasClientSecret: false,
  requireSso: false,
  autoJoin: false,
  domains: [],
  redirectUri: 'http://localhost:3000/api/auth/sso/callback',
};

function asRole(role: 'owner' | 'admin') {
  useCompanyStore
    .getState()
    .setCompanies([{ id: 'c1', name: 'Acme', role, createdAt: '2024-01-01T00:00:00Z' }]);
  useCompanyStore.getState().setCurrentCompany('c1');
}

describe('Company Settings → Single sign-on', () => {
  afterEach(() => useCompanyStore.getState().reset());

  it('is not shown to admins (nor asked for)', () => {
    asRole('admin');
    const calls = mockFetch(() => [403, {}]);
    renderWithProviders(<CompanySettings />);
    expect(screen.getByLabelText('Company Name')).toBeInTheDocument();
    expect(screen.queryByText('Single sign-on')).not.toBeInTheDocument();
    // (The delivery log's retention, on the same page, is the admins' too.)
    expect(calls.filter((c) => c.path.includes('/sso'))).toEqual([]);
  });

  it('lets an owner save the provider; the secret is sent once and never shown again', async () => {
    asRole('owner');
    const calls = mockFetch(({ method, body }) => {
      if (method === 'PUT')
        return [200, { ...empty, ...(body as object), clientSecret: undefined, hasClientSecret: true }];
      return [200, empty];
    });
    renderWithProviders(<CompanySettings />);
    const user = userEvent.setup();
    expect(await screen.findByText(empty.redirectUri)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Issuer URL'), 'https://login.acme.test');
    await user.type(screen.getByLabelText('Client ID'), 'switchboard');
    await user.type(screen.getByLabelText('Client secret'), 's3cret');
    await user.click(screen.getByRole('switch', { name: 'Members must use SSO' }));
    await user.click(screen.getByRole('button', { name: 'Save single sign-on' }));

    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/company/sso',
      body: {
        enabled: false,
        issuer: 'https://login.acme.test',
        clientId: 'switchboard',
        clientSecret: 's3cret',
        requireSso: true,
        autoJoin: false,
      },
    });
    expect(await screen.findByText('A secret is saved. Leave empty to keep it.')).toBeInTheDocument();
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
  });

  it('sends a proof link for a domain and lists it as waiting', async () => {
    asRole('owner');
    let domains: SsoSettingsView['domains'] = [];
    const calls = mockFetch(({ method, body }) => {
      if (method === 'POST') {
        const claimed = {
          id: 'd1',
          domain: (body as { domain: string }).domain,
          verifiedAt: null,
          proofSentTo: 'it@acme.test',
        };
        domains = [claimed];
        return [201, claimed];
      }
      return [200, { ...empty, domains }];
    });
    renderWithProviders(<CompanySettings />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Domain'), 'acme.test');
    await user.type(screen.getByLabelText('Address that receives the proof link (optional)'), 'it@acme.test');
    await user.click(screen.getByRole('button', { name: 'Send proof link' }));

    expect(await screen.findByText('Waiting for proof (it@acme.test)')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      domain: 'acme.test',
      email: 'it@acme.test',
    });
    expect(screen.getByRole('button', { name: 'Remove acme.test' })).toBeInTheDocument();
  });
});
