import { useMemo } from 'react';
import type { UpdateProfileRequest, User } from '../../../api/contracts';
import { http } from '../../../api/httpClient';
import { meApi } from '../../../api/meApi';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useSessionStore } from '../../../stores/sessionStore';

export interface ProfileActions {
  /** The saved user (a new email waits in `pendingEmail`), or null when the save failed. */
  updateProfile: (request: UpdateProfileRequest) => Promise<User | null>;
  changePassword: (currentPassword: string, newPassword: string) => Promise<boolean>;
  /** Throws: the avatar button shows the spec's upload toasts. */
  uploadAvatar: (file: File) => Promise<void>;
}

/** What the Profile Settings dialog does, with the spec's toasts. */
export function useProfileActions(): ProfileActions {
  const { success, failure } = useActionToasts();

  return useMemo(
    () => ({
      async updateProfile(request) {
        try {
          const updated = await meApi.update(request);
          useSessionStore.getState().setUser(updated);
          if (request.email && updated.pendingEmail) {
            success(
              'Profile updated',
              `We sent a confirmation link to ${updated.pendingEmail}. Your email changes when you follow it.`,
            );
          } else {
            success('Profile updated');
          }
          return updated;
        } catch (error) {
          failure('Error updating profile', error, 'Failed to update profile. Please try again.');
          return null;
        }
      },

      async changePassword(currentPassword, newPassword) {
        try {
          const auth = await meApi.changePassword(currentPassword, newPassword);
          // Other sessions were revoked and this one rotated: keep the new token.
          http.setSession(auth);
          useSessionStore.getState().setUser(auth.user);
          success('Password updated');
          return true;
        } catch (error) {
          failure('Error updating password', error);
          return false;
        }
      },

      async uploadAvatar(file) {
        useSessionStore.getState().setUser(await meApi.uploadAvatar(file));
      },
    }),
    [success, failure],
  );
}
