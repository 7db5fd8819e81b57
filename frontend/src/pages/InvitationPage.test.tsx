import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvitationLookup } from '../api/contracts';
import { useCompanyStore } from '../stores/companyStore';
import { useSessionStore } from '../stores/sessionStore';
import { userView } from '../test/fixtures';
import { mockFetch, type RecordedCall } from '../test/mockFetch';
import { renderWithProviders } from '../test/renderWithProviders';
import { InvitationPage } from './InvitationPage';
import { RegisterPage } from './RegisterPage';
import { signOut } from '../workspace/session';

const lookup = (overrides: Partial<InvitationLookup> = {}): InvitationLookup => ({
  companyId: 'c9',
  companyName: 'Difference Ltd',
  email: 'grace@example.com',
  role: 'user',
  inviterName: 'Ada Lovelace',
  expiresAt: '2030-01-01T23:59:59.999Z',
  accountExists: false,
  ...overrides,
});

function Where() {
  const location = useLocation();
  return <p data-testid="landed">{`${location.pathname}${location.search}`}</p>;
}

const landingRoutes = ['/', '/chat', '/company/admin', '/somewhere'].map((path) => ({
  path,
  element: <Where />,
}));

function open(url: string, path = '/invitation', element = <InvitationPage />) {
  renderWithProviders(element, { path, url, extraRoutes: landingRoutes });
}

const landed = async () => (await screen.findByTestId('landed')).textContent;

function server(
  invitation: InvitationLookup | null,
  extra: (call: RecordedCall) => [number, unknown?] | null = () => null,
) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path.startsWith('/api/invitations/lookup'))
      return invitation
        ? [200, invitation]
        : [404, { error: 'NOT_FOUND', message: 'Invalid or expired invitation' }];
    if (call.path === '/api/invitations/accept')
      return [
        200,
        { companyId: invitation?.companyId, companyName: invitation?.companyName, role: invitation?.role },
      ];
    if (call.path === `/api/companies/${invitation?.companyId}`)
      return [
        200,
        {
          id: invitation?.companyId,
          name: invitation?.companyName,
          role: invitation?.role,
          createdAt: '2024-01-01T00:00:00Z',
        },
      ];
    return [404, {}];
  });
}

describe('Invitation page', () => {
  beforeEach(() => useSessionStore.setState({ status: 'unauthenticated', user: null }));
  afterEach(() => {
    signOut();
    useSessionStore.setState({ status: 'idle' });
  });

  it('without a token, says so and goes home', async () => {
    server(null);
    open('/invitation');
    expect(await landed()).toBe('/');
    expect(await screen.findByText('Invalid invitation')).toBeInTheDocument();
    expect(screen.getByText('No invitation token provided.')).toBeInTheDocument();
  });

  it("shows 'Invalid Invitation' with 'Return to Home' for a token that is not valid", async () => {
    server(null);
    open('/invitation?token=nope');
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Return to Home' }));
    expect(await landed()).toBe('/');
  });

  it('signs a new person up through the invitation, requiring every field, and lands them in the chat', async () => {
    const calls = server(lookup(), ({ path }) => {
      if (path === '/api/auth/register-invited')
        return [
          201,
          { accessToken: 't', expiresIn: 900, user: userView({ id: 'u9', email: 'grace@example.com' }) },
        ];
      if (path === '/api/me')
        return [
          200,
          {
            user: userView({ id: 'u9', email: 'grace@example.com' }),
            companies: [
              { id: 'c9', name: 'Difference Ltd', role: 'user', createdAt: '2024-01-01T00:00:00Z' },
            ],
          },
        ];
      return null;
    });
    open('/invitation?token=tok');
    expect(await screen.findByRole('heading', { name: 'Company Invitation' })).toBeInTheDocument();
    expect(
      screen.getByText('Ada Lovelace has invited you to join Difference Ltd as a user.'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('First Name'), 'Grace');
    await user.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Please fill in all required fields')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Last Name'), 'Hopper');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Create account and join' }));

    expect(await landed()).toBe('/chat');
    expect(calls.find((c) => c.path === '/api/auth/register-invited')?.body).toEqual({
      token: 'tok',
      firstName: 'Grace',
      lastName: 'Hopper',
      password: 'correct horse battery',
    });
    expect(screen.getByText('Invitation accepted')).toBeInTheDocument();
    expect(screen.getByText('You have successfully joined Difference Ltd.')).toBeInTheDocument();
    expect(useCompanyStore.getState().currentCompanyId).toBe('c9');
  });

  it('says to check the email when a sign-up through a copied link must wait for the mailed link', async () => {
    const calls = server(lookup(), ({ path }) =>
      path === '/api/auth/register-invited'
        ? [202, { verificationRequired: true, email: 'grace@example.com' }]
        : null,
    );
    open('/invitation?token=tok');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('First Name'), 'Grace');
    await user.type(screen.getByLabelText('Last Name'), 'Hopper');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    expect(screen.getByText(/We sent a confirmation link to grace@example.com/)).toBeInTheDocument();
    expect(useSessionStore.getState().status).toBe('unauthenticated');
    expect(calls.some((c) => c.path === '/api/me')).toBe(false);
  });

  it('offers someone who has an account a sign-in that comes back to the invitation', async () => {
    server(lookup({ accountExists: true }));
    open('/invitation?token=tok&redirect=%2Fsomewhere');
    expect(await screen.findByRole('heading', { name: 'Company Invitation' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Sign in to accept' });
    const target = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/');
    expect(target.searchParams.get('redirect')).toBe('/invitation?token=tok&redirect=%2Fsomewhere');
  });

  describe('signed in', () => {
    const signInAs = (email: string) =>
      useSessionStore.setState({ status: 'authenticated', user: userView({ email }) });

    it('accepts with the invited address and goes to a same-origin redirect', async () => {
      signInAs('Grace@Example.com');
      const calls = server(lookup());
      open('/invitation?token=tok&redirect=%2Fsomewhere%3Fa%3D1');
      expect(await screen.findByRole('heading', { name: 'Accepting Invitation' })).toBeInTheDocument();
      expect(await landed()).toBe('/somewhere?a=1');
      expect(calls.filter((c) => c.path === '/api/invitations/accept').map((c) => c.body)).toEqual([
        { token: 'tok' },
      ]);
      expect(screen.getByText('You have successfully joined Difference Ltd.')).toBeInTheDocument();
      expect(useCompanyStore.getState().currentCompanyId).toBe('c9');
    });

    it.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example'])(
      'never follows an outside redirect (%s): an admin lands in Company Admin',
      async (redirect) => {
        signInAs('grace@example.com');
        server(lookup({ role: 'admin' }));
        open(`/invitation?token=tok&redirect=${encodeURIComponent(redirect)}`);
        expect(await landed()).toBe('/company/admin?company=c9');
      },
    );

    it('sends a plain member to the chat when there is no redirect', async () => {
      signInAs('grace@example.com');
      server(lookup());
      open('/invitation?token=tok');
      expect(await landed()).toBe('/chat');
    });

    it('offers to try again when the accept failed for another reason than the invitation', async () => {
      signInAs('grace@example.com');
      let failures = 1;
      const calls = server(lookup(), ({ path }) =>
        path === '/api/invitations/accept' && failures-- > 0 ? [503, { message: 'down' }] : null,
      );
      open('/invitation?token=tok');
      expect(await screen.findByText('Failed to accept invitation')).toBeInTheDocument();
      await userEvent.setup().click(await screen.findByRole('button', { name: 'Try again' }));
      expect(await landed()).toBe('/chat');
      expect(calls.filter((c) => c.path === '/api/invitations/accept')).toHaveLength(2);
    });

    it('refuses another address, and accepts nothing', async () => {
      signInAs('someone.else@example.com');
      const calls = server(lookup());
      open('/invitation?token=tok');
      expect(await landed()).toBe('/');
      expect(screen.getByText('Email mismatch')).toBeInTheDocument();
      expect(
        screen.getByText('Please sign in with the email address the invitation was sent to.'),
      ).toBeInTheDocument();
      await waitFor(() => expect(calls.some((c) => c.path === '/api/invitations/accept')).toBe(false));
    });
  });
});

describe('Register page, invited mode', () => {
  beforeEach(() => useSessionStore.setState({ status: 'unauthenticated', user: null }));
  afterEach(() => useSessionStore.setState({ status: 'idle', user: null }));

  it("names the company, fixes the email and says 'Please enter a password'", async () => {
    server(lookup());
    open('/register?token=tok', '/register', <RegisterPage />);
    expect(await screen.findByRole('heading', { name: 'Complete Your Registration' })).toBeInTheDocument();
    expect(screen.getByText('You have been invited to join Difference Ltd.')).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('grace@example.com');
    expect(email).toBeDisabled();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('First Name'), 'Grace');
    await user.type(screen.getByLabelText('Last Name'), 'Hopper');
    await user.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(await screen.findByText('Please enter a password')).toBeInTheDocument();
  });
});
