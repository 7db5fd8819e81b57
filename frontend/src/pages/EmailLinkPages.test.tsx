import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../stores/sessionStore';
import { userView } from '../test/fixtures';
import { mockFetch } from '../test/mockFetch';
import { renderWithProviders } from '../test/renderWithProviders';
import { ConfirmEmailPage } from './ConfirmEmailPage';
import { VerifyDomainPage } from './VerifyDomainPage';
import { VerifyEmailPage } from './VerifyEmailPage';
import { signOut } from '../workspace/session';

const home = { path: '/', element: <p>Home screen</p> };
const chat = { path: '/chat', element: <p>Chat screen</p> };

describe('/verify-email', () => {
  it('verifies the address once and continues to sign in', async () => {
    const calls = mockFetch(() => [200, { ok: true }]);
    renderWithProviders(<VerifyEmailPage />, {
      path: '/verify-email',
      url: '/verify-email?token=abc',
      extraRoutes: [home],
    });

    expect(await screen.findByText('Email verified')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'POST', path: '/api/auth/verify-email', body: { token: 'abc' } }]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue to sign in' }));
    expect(await screen.findByText('Home screen')).toBeInTheDocument();
  });

  it('says an invalid or expired link is one, with a way home', async () => {
    mockFetch(() => [
      400,
      { statusCode: 400, error: 'VALIDATION_FAILED', message: 'This link is invalid or has expired.' },
    ]);
    renderWithProviders(<VerifyEmailPage />, {
      path: '/verify-email',
      url: '/verify-email?token=used',
      extraRoutes: [home],
    });

    expect(await screen.findByText('This verification link is invalid or has expired.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Return to Home' }));
    expect(await screen.findByText('Home screen')).toBeInTheDocument();
  });

  it('needs no request for a link without a token', () => {
    const calls = mockFetch(() => [200, { ok: true }]);
    renderWithProviders(<VerifyEmailPage />, { path: '/verify-email' });
    expect(screen.getByText('This verification link is invalid or has expired.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('/confirm-email', () => {
  afterEach(() => signOut());

  it("changes a signed-in tab's email to the confirmed one and continues to the chat", async () => {
    useSessionStore.setState({
      status: 'authenticated',
      user: userView({ pendingEmail: 'new@example.com' }),
    });
    mockFetch(({ path }) => {
      if (path === '/api/auth/confirm-email') return [200, { ok: true, email: 'new@example.com' }];
      if (path === '/api/me') return [200, { user: userView({ email: 'new@example.com' }), companies: [] }];
      return [404, {}];
    });
    renderWithProviders(<ConfirmEmailPage />, {
      path: '/confirm-email',
      url: '/confirm-email?token=t1',
      extraRoutes: [chat],
    });

    expect(await screen.findByText('Email updated')).toBeInTheDocument();
    expect(screen.getByText(/now new@example.com/)).toBeInTheDocument();
    expect(useSessionStore.getState().user?.email).toBe('new@example.com');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue to chat' }));
    expect(await screen.findByText('Chat screen')).toBeInTheDocument();
  });

  it('says an invalid or expired confirmation link is one', async () => {
    mockFetch(() => [400, { statusCode: 400, error: 'VALIDATION_FAILED', message: 'Invalid token' }]);
    renderWithProviders(<ConfirmEmailPage />, { path: '/confirm-email', url: '/confirm-email?token=bad' });
    expect(await screen.findByText('This confirmation link is invalid or has expired.')).toBeInTheDocument();
  });
});

describe('/verify-domain', () => {
  it('confirms the domain once and names it', async () => {
    const calls = mockFetch(() => [200, { domain: 'acme.test', companyName: 'Acme' }]);
    renderWithProviders(<VerifyDomainPage />, { path: '/verify-domain', url: '/verify-domain?token=d1' });
    expect(await screen.findByText('Domain confirmed')).toBeInTheDocument();
    expect(screen.getByText(/acme.test can now be used for single sign-on/)).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'POST', path: '/api/sso/domains/verify', body: { token: 'd1' } }]);
  });

  it('says so when another company proved the domain first', async () => {
    const message = 'This domain is already used for single sign-on by another company';
    mockFetch(() => [409, { statusCode: 409, error: 'CONFLICT', message }]);
    renderWithProviders(<VerifyDomainPage />, { path: '/verify-domain', url: '/verify-domain?token=d2' });
    expect(await screen.findByText(message)).toBeInTheDocument();
  });
});
