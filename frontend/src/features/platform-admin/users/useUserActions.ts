import type { PlatformUserView } from '@contracts/platform-admin';
import { useMemo } from 'react';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useSessionStore } from '../../../stores/sessionStore';
import { usersApi } from './usersApi';
import { usePlatformUsersStore } from '../../../stores/platformUsersStore';

export interface UserActions {
  invite: (name: string, email: string) => Promise<boolean>;
  sendPasswordReset: (user: PlatformUserView) => Promise<boolean>;
  setSuperadmin: (user: PlatformUserView, isSuperadmin: boolean) => Promise<boolean>;
  setDisabled: (user: PlatformUserView, disabled: boolean) => Promise<boolean>;
}

/** The actions of User Management: each calls the API, puts the answered row in the store and says so. */
export function useUserActions(): UserActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { success, failure } = toasts;
    const store = () => usePlatformUsersStore.getState();
    const update = async (
      user: PlatformUserView,
      change: { isSuperadmin?: boolean; disabled?: boolean },
      done: string,
      failed: string,
    ) => {
      try {
        const saved = await usersApi.update(user.id, change);
        store().upsertUser(saved);
        success(done, user.name ? `${user.name} (${user.email})` : user.email);
        // Demoting oneself: Platform Admin closes at once (the server already refuses the next call).
        const session = useSessionStore.getState();
        if (session.user && session.user.id === saved.id && !saved.isSuperadmin)
          session.setUser({ ...session.user, isSuperadmin: false });
        return true;
      } catch (error) {
        failure(failed, error, 'Please try again later.');
        return false;
      }
    };
    return {
      async invite(name, email) {
        try {
          const created = await usersApi.invite({ name: name.trim(), email: email.trim() });
          store().upsertUser(created);
          success('User invited', `An email to ${created.email} lets them choose a password.`);
          return true;
        } catch (error) {
          failure('Failed to invite user', error, 'Please try again later.');
          return false;
        }
      },
      async sendPasswordReset(user) {
        try {
          await usersApi.sendPasswordReset(user.id);
          success('Password reset email sent', `Sent to ${user.email}.`);
          return true;
        } catch (error) {
          failure('Failed to send reset email', error, 'Please try again later.');
          return false;
        }
      },
      setSuperadmin: (user, isSuperadmin) =>
        update(
          user,
          { isSuperadmin },
          isSuperadmin ? 'Promoted to Super Admin' : 'Super Admin role removed',
          isSuperadmin ? 'Failed to promote user' : 'Failed to demote user',
        ),
      setDisabled: (user, disabled) =>
        update(
          user,
          { disabled },
          disabled ? 'Account disabled' : 'Account enabled',
          disabled ? 'Failed to disable account' : 'Failed to enable account',
        ),
    };
  }, [toasts]);
}
