import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompanyMembership, CompanyRole } from '../../../api/contracts';
import { useCompanyStore } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { userView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { UserMenu } from './UserMenu';

function signInAs({ role, isSuperadmin = false }: { role: CompanyRole; isSuperadmin?: boolean }) {
  const user = userView({ isSuperadmin });
  const companies: CompanyMembership[] = [
    { id: 'c1', name: 'Analytical Engines', role, createdAt: '2024-01-01T00:00:00Z' },
    { id: 'c2', name: 'Difference Ltd', role: 'owner', createdAt: '2024-01-02T00:00:00Z' },
  ];
  useSessionStore.setState({ status: 'authenticated', user });
  useCompanyStore.setState({ companies, currentCompanyId: 'c1' });
}

async function openMenu() {
  renderWithProviders(<UserMenu />, { path: '/chat' });
  await userEvent.setup().click(screen.getByRole('button', { name: 'User menu' }));
  await screen.findByText('Log out');
}

describe('UserMenu', () => {
  afterEach(() => {
    useSessionStore.setState({ status: 'idle', user: null });
    useCompanyStore.setState({ companies: [], currentCompanyId: null });
  });

  it('shows the user, their companies and the everyday items', async () => {
    signInAs({ role: 'user' });
    await openMenu();

    expect(screen.getByRole('button', { name: 'User menu' })).toHaveTextContent('A');
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    for (const item of ['Profile', 'Settings', 'Analytical Engines', 'Difference Ltd', 'Create Company']) {
      expect(screen.getByText(item)).toBeInTheDocument();
    }
  });

  it.each(['owner', 'admin'] as const)(
    'shows Company Admin to the %s of the current company',
    async (role) => {
      signInAs({ role });
      await openMenu();
      expect(screen.getByText('Company Admin')).toBeInTheDocument();
      expect(screen.queryByText('Platform Admin')).not.toBeInTheDocument();
    },
  );

  it('hides Company Admin from plain members of the current company', async () => {
    // The user owns another company (c2), but c1 is current.
    signInAs({ role: 'user' });
    await openMenu();
    expect(screen.queryByText('Company Admin')).not.toBeInTheDocument();
    expect(screen.queryByText('Platform Admin')).not.toBeInTheDocument();
  });

  it('shows Platform Admin to superadmins', async () => {
    signInAs({ role: 'user', isSuperadmin: true });
    await openMenu();
    expect(screen.getByText('Platform Admin')).toBeInTheDocument();
    expect(screen.queryByText('Company Admin')).not.toBeInTheDocument();
  });
});
