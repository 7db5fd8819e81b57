import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../stores/sessionStore';
import { userView } from '../test/fixtures';
import { mockFetch } from '../test/mockFetch';
import { renderWithProviders } from '../test/renderWithProviders';
import { RegisterPage } from './RegisterPage';
import { signOut } from '../workspace/session';

async function fillAndSubmit() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.type(screen.getByLabelText('Full Name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Company Name'), 'Analytical Engines');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('RegisterPage', () => {
  afterEach(() => signOut());

  it('asks to check the email when the account must be verified first, without signing in', async () => {
    mockFetch(() => [202, { verificationRequired: true, email: 'ada@example.com' }]);
    renderWithProviders(<RegisterPage />, { path: '/register' });
    await fillAndSubmit();

    expect(await screen.findByText('Registration successful')).toBeInTheDocument();
    expect(screen.getByText('Please check your email to confirm your account.')).toBeInTheDocument();
    expect(screen.getByText('Check your email')).toBeInTheDocument();
    expect(screen.getByText(/sent a confirmation link to ada@example.com/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/');
    expect(useSessionStore.getState().status).not.toBe('authenticated');
  });

  it('signs in and goes to the chat when no verification is required', async () => {
    mockFetch(({ path }) => {
      if (path === '/api/auth/register')
        return [201, { accessToken: 't', expiresIn: 900, user: userView({ emailVerified: false }) }];
      if (path === '/api/me') return [200, { user: userView({ emailVerified: false }), companies: [] }];
      return [404, {}];
    });
    renderWithProviders(<RegisterPage />, {
      path: '/register',
      extraRoutes: [{ path: '/chat', element: <p>Chat screen</p> }],
    });
    await fillAndSubmit();

    expect(await screen.findByText('Chat screen')).toBeInTheDocument();
    expect(screen.getByText('Registration successful')).toBeInTheDocument();
    expect(screen.getByText('Your account has been created.')).toBeInTheDocument();
    expect(useSessionStore.getState().status).toBe('authenticated');
  });
});
