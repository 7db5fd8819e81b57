import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { SignInForm } from './SignInForm';

describe('SignInForm', () => {
  it('offers to resend the link when the email is not verified yet', async () => {
    const calls = mockFetch(({ path }) => {
      if (path === '/api/auth/providers') return [200, { google: false }];
      if (path === '/api/auth/login')
        return [
          403,
          { statusCode: 403, error: 'EMAIL_NOT_VERIFIED', message: 'Please verify your email first' },
        ];
      if (path === '/api/auth/resend-verification') return [202, { ok: true }];
      return [404, {}];
    });
    const user = userEvent.setup();
    renderWithProviders(<SignInForm />);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Please verify your email first')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));

    expect(await screen.findByText('Verification email sent')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/auth/resend-verification')?.body).toEqual({
      email: 'ada@example.com',
    });
  });

  it("shows the server's reason for a refused sign-in", async () => {
    mockFetch(({ path }) =>
      path === '/api/auth/login'
        ? [401, { statusCode: 401, error: 'UNAUTHORIZED', message: 'Invalid email or password' }]
        : [200, { google: false }],
    );
    const user = userEvent.setup();
    renderWithProviders(<SignInForm />);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument();
  });

  it('explains a Google sign-in refused because the existing account is not verified', async () => {
    mockFetch(() => [200, { google: true }]);
    renderWithProviders(<SignInForm />, { url: '/?error=google_account_unverified' });

    expect(await screen.findByText('Google login failed')).toBeInTheDocument();
    expect(screen.getByText(/its address is not verified yet/)).toBeInTheDocument();
  });

  it('offers "Continue with SSO" for an address whose company signs in with its own provider', async () => {
    const calls = mockFetch(({ path }) => {
      if (path.startsWith('/api/auth/sso/lookup')) return [200, { sso: path.includes('acme.test') }];
      return [200, { google: true }];
    });
    const user = userEvent.setup();
    renderWithProviders(<SignInForm />);

    await user.type(screen.getByLabelText('Email'), 'someone@other.test');
    await waitFor(() => expect(calls.some((c) => c.path.includes('other.test'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Continue with SSO' })).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'someone@acme.test');
    expect(await screen.findByRole('button', { name: 'Continue with SSO' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith('/api/auth/sso/lookup')).at(-1)?.path).toBe(
      '/api/auth/sso/lookup?email=someone%40acme.test',
    );
    // Password and Google stay for everyone else.
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Sign in with Google/ })).toBeInTheDocument();
  });

  it('explains a refused single sign-on', async () => {
    mockFetch(() => [200, { google: false }]);
    renderWithProviders(<SignInForm />, { url: '/?error=sso_no_access' });

    expect(await screen.findByText('Single sign-on failed')).toBeInTheDocument();
    expect(screen.getByText(/has not given you access to Switchboard yet/)).toBeInTheDocument();
  });
});
