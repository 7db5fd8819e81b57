import { useMemo } from 'react';
import { authApi, isVerificationRequired } from '../../../api/authApi';
import type { RegisterRequest } from '../../../api/contracts';
import { ApiError, getErrorMessage, hasErrorCode } from '../../../api/errors';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { signIn, signOut } from '../../../workspace/session';

export type SignInOutcome = 'signed-in' | 'email-not-verified' | 'failed';
export type RegisterOutcome =
  { kind: 'signed-in' } | { kind: 'verification-required'; email: string } | { kind: 'failed' };

export interface AuthActions {
  signIn: (email: string, password: string) => Promise<SignInOutcome>;
  register: (request: RegisterRequest) => Promise<RegisterOutcome>;
  /** Always answers alike (whether an account waits for that address or not). */
  resendVerification: (email: string) => Promise<void>;
  /** Ends the session here and on the server; false when it could not (the toast says so). */
  logOut: () => Promise<boolean>;
  requestPasswordReset: (email: string) => Promise<boolean>;
  /** Null when the password was changed, else the message for the page to show. */
  resetPassword: (token: string, password: string) => Promise<string | null>;
}

/** Sign-in, registration, the verification mail, log out and password reset, with the spec's toasts. */
export function useAuthActions(): AuthActions {
  const { success, failure, refusal } = useActionToasts();

  return useMemo(
    () => ({
      async signIn(email, password) {
        try {
          await signIn(await authApi.login(email, password));
          success('Logged in successfully', 'Welcome back!');
          return 'signed-in';
        } catch (error) {
          // The card says so itself and offers to resend the link: no toast on top.
          if (hasErrorCode(error, 'EMAIL_NOT_VERIFIED')) return 'email-not-verified';
          failure('Login failed', error);
          return 'failed';
        }
      },

      async register(request) {
        try {
          const response = await authApi.register(request);
          if (isVerificationRequired(response)) {
            success('Registration successful', 'Please check your email to confirm your account.');
            return { kind: 'verification-required', email: response.email };
          }
          await signIn(response);
          success('Registration successful', 'Your account has been created.');
          return { kind: 'signed-in' };
        } catch (error) {
          failure('Registration failed', error, 'Please try again later');
          return { kind: 'failed' };
        }
      },

      async resendVerification(email) {
        try {
          await authApi.resendVerification(email);
          success('Verification email sent', 'Check your inbox for the link to confirm your account.');
        } catch (error) {
          failure('Failed to send verification email', error, 'Please try again later.');
        }
      },

      async logOut() {
        try {
          await authApi.logout();
        } catch (error) {
          // A 401 means the session is already gone on the server: that is a successful log out.
          if (!(error instanceof ApiError && error.status === 401)) {
            refusal('Logout failed', 'There was an error logging out. Please try again.');
            return false;
          }
        }
        signOut();
        success('Logged out', 'Come back soon!');
        return true;
      },

      async requestPasswordReset(email) {
        try {
          await authApi.forgotPassword(email);
          success('Password reset email sent', 'Check your email for a link to reset your password.');
          return true;
        } catch {
          // The spec's own wording for this failure, whatever the cause.
          refusal('Password reset failed', 'Could not send the password reset email');
          return false;
        }
      },

      async resetPassword(token, password) {
        try {
          await authApi.resetPassword(token, password);
          return null;
        } catch (error) {
          return getErrorMessage(error);
        }
      },
    }),
    [success, failure, refusal],
  );
}
