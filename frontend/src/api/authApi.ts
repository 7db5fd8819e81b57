import type {
  AuthResponse,
  ConfirmEmailResponse,
  OkResponse,
  ProvidersResponse,
  RegisterRequest,
  RegisterResponse,
  VerificationRequiredResponse,
} from './contracts';
import { http } from './httpClient';
import { withQuery } from './query';

export const GOOGLE_SIGN_IN_URL = '/api/auth/google';

/** Where "Continue with SSO" sends the browser: the server redirects to the company's provider. */
export function ssoSignInUrl(email: string): string {
  return withQuery('/api/auth/sso/start', { email });
}

/** Register answered 202: the account waits for its email link, and there is no session yet. */
export function isVerificationRequired(response: RegisterResponse): response is VerificationRequiredResponse {
  return 'verificationRequired' in response && response.verificationRequired;
}

export const authApi = {
  login: (email: string, password: string) =>
    http.post<AuthResponse>('/api/auth/login', { email, password }, { auth: false, credentialCheck: true }),
  register: (request: RegisterRequest) =>
    http.post<RegisterResponse>('/api/auth/register', request, { auth: false }),
  logout: () => http.post<void>('/api/auth/logout', undefined, { refreshOnUnauthorized: false }),
  forgotPassword: (email: string) =>
    http.post<OkResponse>('/api/auth/forgot-password', { email }, { auth: false }),
  resetPassword: (token: string, password: string) =>
    http.post<OkResponse>('/api/auth/reset-password', { token, password }, { auth: false }),
  /** Always 202 {ok: true}, whether or not the address has an unverified account. */
  resendVerification: (email: string) =>
    http.post<OkResponse>('/api/auth/resend-verification', { email }, { auth: false }),
  verifyEmail: (token: string) => http.post<OkResponse>('/api/auth/verify-email', { token }, { auth: false }),
  /** Follows the link sent to a new address: the account's email becomes that address. */
  confirmEmail: (token: string) =>
    http.post<ConfirmEmailResponse>('/api/auth/confirm-email', { token }, { auth: false }),
  providers: () => http.get<ProvidersResponse>('/api/auth/providers', { auth: false }),
  /** Whether the address's company signs in with single sign-on (nothing else is said). */
  ssoLookup: (email: string) =>
    http.get<{ sso: boolean }>(withQuery('/api/auth/sso/lookup', { email }), { auth: false }),
};
