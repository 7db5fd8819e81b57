import { http } from './httpClient';
import type { AuthResponse, ProvidersResponse } from './types';

export interface RegisterRequest {
  email: string;
  password: string;
  fullName: string;
  companyName: string;
}

export const GOOGLE_SIGN_IN_URL = '/api/auth/google';

export const authApi = {
  login: (email: string, password: string) =>
    http.post<AuthResponse>('/api/auth/login', { email, password }, { auth: false }),
  register: (request: RegisterRequest) =>
    http.post<AuthResponse>('/api/auth/register', request, { auth: false }),
  logout: () => http.post<void>('/api/auth/logout', undefined, { refreshOnUnauthorized: false }),
  forgotPassword: (email: string) =>
    http.post<{ ok: boolean }>('/api/auth/forgot-password', { email }, { auth: false }),
  resetPassword: (token: string, password: string) =>
    http.post<{ ok: boolean }>('/api/auth/reset-password', { token, password }, { auth: false }),
  providers: () => http.get<ProvidersResponse>('/api/auth/providers', { auth: false }),
};
