import type { PlatformUserPage, PlatformUserView } from '@contracts/platform-admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userView } from '../../../test/fixtures';
import { mockFetch, type MockAnswer, type RecordedCall } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useSessionStore } from '../../../stores/sessionStore';
import { usePlatformUsersStore } from '../../../stores/platformUsersStore';
import { formatLastLogin, PlatformUsers } from './PlatformUsers';

const row = (overrides: Partial<PlatformUserView> = {}): PlatformUserView => ({
  id: 'u2',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  avatar: '/placeholder.svg',
  isSuperadmin: false,
  disabled: false,
  lastLogin: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  ...overrides,
});

const page = (users: PlatformUserView[], nextCursor: string | null = null): PlatformUserPage => ({
  users,
  nextCursor,
});

function serve(extra: (call: RecordedCall) => MockAnswer | undefined = () => undefined): RecordedCall[] {
  return mockFetch((call) => {
    const answered = extra(call);
    if (answered) return answered;
    if (call.method === 'GET' && call.path.startsWith('/api/admin/users'))
      return [
        200,
        page([
          row({
            id: 'u1',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            isSuperadmin: true,
            lastLogin: '2024-03-05T14:07:00.000Z',
          }),
          row(),
        ]),
      ];
    return [404, { message: 'no such route in this test' }];
  });
}

describe('PlatformUsers', { timeout: 20_000 }, () => {
  beforeEach(() => {
    useSessionStore.setState({ status: 'authenticated', user: userView({ id: 'u1', isSuperadmin: true }) });
    usePlatformUsersStore.getState().reset();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    useSessionStore.setState({ status: 'idle', user: null });
  });

  it("formats the last login as the spec's 'MMM d, yyyy h:mm a', else 'Never'", () => {
    const at = '2024-03-05T14:07:00.000Z';
    expect(formatLastLogin(at)).toBe(dayjs(at).format('MMM D, YYYY h:mm A'));
    expect(formatLastLogin(at)).toMatch(/^Mar 5, 2024 \d{1,2}:07 (AM|PM)$/);
    expect(formatLastLogin(null)).toBe('Never');
  });

  it('shows name, email, role and last login of every account', async () => {
    serve();
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    const table = await screen.findByRole('table');
    const grace = (await within(table).findByText('grace@example.com')).closest('tr') as HTMLElement;
    expect(within(grace).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(grace).getByText('User')).toBeInTheDocument();
    expect(within(grace).getByText('Never')).toBeInTheDocument();
    const ada = within(table).getByText('ada@example.com').closest('tr') as HTMLElement;
    expect(within(ada).getByText('Super Admin')).toBeInTheDocument();
    expect(within(ada).getByText(formatLastLogin('2024-03-05T14:07:00.000Z'))).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'User Management' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh users' })).toBeInTheDocument();
  });

  it("says 'No users found' when the search matches nobody, searching on the server", async () => {
    const calls = serve((call) => (call.path.includes('search=') ? [200, page([])] : undefined));
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    await screen.findByText('grace@example.com');
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search users' }), 'zzz');
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/users?search=zzz&limit=50')).toBe(true);
  });

  it('loads the next page on Load more', async () => {
    serve((call) =>
      call.path.includes('cursor=next')
        ? [200, page([row({ id: 'u3', email: 'zed@example.com', name: 'Zed' })])]
        : call.method === 'GET'
          ? [200, page([row()], 'next')]
          : undefined,
    );
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    await screen.findByText('grace@example.com');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('zed@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('sends a password reset from the row actions', async () => {
    const calls = serve((call) => (call.path.endsWith('/password-reset') ? [204] : undefined));
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Grace Hopper' }));
    await user.click(await screen.findByText('Send password reset'));
    expect(await screen.findByText('Password reset email sent')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/users/u2/password-reset')).toBe(
      true,
    );
  });

  it("says 'Failed to send reset email' when the reset cannot be sent", async () => {
    serve((call) =>
      call.path.endsWith('/password-reset') ? [404, { message: 'User not found' }] : undefined,
    );
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Grace Hopper' }));
    await user.click(await screen.findByText('Send password reset'));
    expect(await screen.findByText('Failed to send reset email')).toBeInTheDocument();
    expect(screen.getByText('User not found')).toBeInTheDocument();
  });

  it("shows the server's refusal when the last super admin would be demoted", async () => {
    serve((call) =>
      call.method === 'PATCH'
        ? [409, { error: 'CONFLICT', message: 'The platform needs at least one active super admin.' }]
        : undefined,
    );
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Ada Lovelace' }));
    await user.click(await screen.findByText('Remove Super Admin'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Super Admin' }));
    expect(await screen.findByText('Failed to demote user')).toBeInTheDocument();
    expect(screen.getByText('The platform needs at least one active super admin.')).toBeInTheDocument();
  });

  it('does not offer to disable your own account', async () => {
    serve();
    renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Ada Lovelace' }));
    const item = (await screen.findByText('Disable account')).closest('li');
    expect(item).toHaveAttribute('aria-disabled', 'true');
  });

  describe('Invite User', { timeout: 20_000 }, () => {
    const open = async () => {
      renderWithProviders(<PlatformUsers />, { path: '/admin/users' });
      await screen.findByText('grace@example.com');
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: /Invite User/ }));
      const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
      return { user, dialog };
    };

    it('keeps Send Invitation disabled until both name and email are filled', async () => {
      serve();
      const { user, dialog } = await open();
      const send = within(dialog).getByRole('button', { name: 'Send Invitation' });
      expect(send).toBeDisabled();
      await user.type(within(dialog).getByLabelText('Name'), 'Ivy');
      expect(send).toBeDisabled();
      await user.type(within(dialog).getByLabelText('Email'), 'ivy@example.com');
      expect(send).toBeEnabled();
    });

    it("refuses an empty submit with 'Missing information'", async () => {
      const calls = serve();
      const { user, dialog } = await open();
      await user.type(within(dialog).getByLabelText('Name'), '  ');
      await user.type(within(dialog).getByLabelText('Email'), 'ivy@example.com');
      await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
      expect(await screen.findByText('Missing information')).toBeInTheDocument();
      expect(screen.getByText('Please provide both email and name.')).toBeInTheDocument();
      expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it("invites, says 'User invited' and shows the new account", async () => {
      const calls = serve((call) =>
        call.method === 'POST' && call.path === '/api/admin/users/invitations'
          ? [201, row({ id: 'u9', name: 'Ivy Invitee', email: 'ivy@example.com' })]
          : undefined,
      );
      const { user, dialog } = await open();
      await user.type(within(dialog).getByLabelText('Name'), 'Ivy Invitee');
      await user.type(within(dialog).getByLabelText('Email'), 'ivy@example.com');
      await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
      expect(await screen.findByText('User invited')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'Ivy Invitee',
        email: 'ivy@example.com',
      });
      await waitFor(() => expect(screen.getByRole('table')).toHaveTextContent('ivy@example.com'));
    });
  });
});
