import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../../../stores/sessionStore';
import { userView } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { ProfileTab } from './ProfileTab';
import { signOut } from '../../../workspace/session';

/** As in the dialog: the tab shows the session's user, so an answer that changes it shows at once. */
function SessionProfileTab() {
  const user = useSessionStore((s) => s.user);
  return user ? <ProfileTab user={user} /> : null;
}

describe('ProfileTab', () => {
  afterEach(() => signOut());

  it('keeps the email until the link sent to the new address is followed, and says so', async () => {
    const before = userView();
    useSessionStore.setState({ status: 'authenticated', user: before });
    const calls = mockFetch(() => [200, { ...before, pendingEmail: 'ada@new.example.com' }]);
    const user = userEvent.setup();
    renderWithProviders(<SessionProfileTab />, { path: '/chat' });

    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'ada@new.example.com');
    await user.type(screen.getByLabelText('Current Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(
      await screen.findByText(
        'We sent a confirmation link to ada@new.example.com. Your email changes when you follow it.',
      ),
    ).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ email: 'ada@new.example.com', currentPassword: 'correct horse' });
    expect(useSessionStore.getState().user?.email).toBe('ada@example.com');
    expect(useSessionStore.getState().user?.pendingEmail).toBe('ada@new.example.com');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByText(/Waiting for confirmation: ada@new.example.com/)).toBeInTheDocument();
  });
});
