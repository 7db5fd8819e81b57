import { App } from 'antd';
import { useMemo } from 'react';
import { authApi, isVerificationRequired } from '../../../api/authApi';
import type { RegisterRequest } from '../../../api/contracts';
import { getErrorMessage, hasErrorCode } from '../../../api/errors';
import { useSessionStore } from '../../../stores/sessionStore';

export type SignInOutcome = 'signed-in' | 'email-not-verified' | 'failed';
export type RegisterOutcome =
  { kind: 'signed-in' } | { kind: 'verification-required'; email: string } | { kind: 'failed' };

export interface AuthActions {
  signIn: (email: string, password: string) => Promise<SignInOutcome>;
  register: (request: RegisterRequest) => Promise<RegisterOutcome>;
  /** Always answers alike (whether an account waits for that address or not). */
  resendVerification: (email: string) => Promise<void>;
}

/** Sign-in, registration and the verification mail, with the spec's toasts. */
export function useAuthActions(): AuthActions {
  const { notification } = App.useApp();

  return useMemo(
    () => ({
      async signIn(email, password) {
        try {
          await useSessionStore.getState().signIn(await authApi.login(email, password));
          notification.success({ title: 'Logged in successfully', description: 'Welcome back!' });
          return 'signed-in';
        } catch (error) {
          // The card says so itself and offers to resend the link: no toast on top.
          if (hasErrorCode(error, 'EMAIL_NOT_VERIFIED')) return 'email-not-verified';
          notification.error({ title: 'Login failed', description: getErrorMessage(error) });
          return 'failed';
        }
      },

      async register(request) {
        try {
          const response = await authApi.register(request);
          if (isVerificationRequired(response)) {
            notification.success({
              title: 'Registration successful',
              description: 'Please check your email to confirm your account.',
            });
            return { kind: 'verification-required', email: response.email };
          }
          await useSessionStore.getState().signIn(response);
          notification.success({
            title: 'Registration successful',
            description: 'Your account has been created.',
          });
          return { kind: 'signed-in' };
        } catch (error) {
          notification.error({
            title: 'Registration failed',
            description: getErrorMessage(error, 'Please try again later'),
          });
          return { kind: 'failed' };
        }
      },

      async resendVerification(email) {
        try {
          await authApi.resendVerification(email);
          notification.success({
            title: 'Verification email sent',
            description: 'Check your inbox for the link to confirm your account.',
          });
        } catch (error) {
          notification.error({
            title: 'Failed to send verification email',
            description: getErrorMessage(error, 'Please try again later.'),
          });
        }
      },
    }),
    [notification],
  );
}
