import type { User } from './users';

/** A signed-in session: the access token (the refresh token travels in an httpOnly cookie). */
export interface AuthResponse {
  accessToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  user: User;
}

/** POST /api/auth/register */
export interface RegisterRequest {
  email: string;
  password: string;
  fullName: string;
  companyName: string;
}

/** 202 from register when the installation requires a verified email: no session yet. */
export interface VerificationRequiredResponse {
  verificationRequired: true;
  email: string;
}

/** 201 (signed in) or 202 (check your email). */
export type RegisterResponse = AuthResponse | VerificationRequiredResponse;

/** POST /api/auth/login */
export interface LoginRequest {
  email: string;
  password: string;
}

/** POST /api/auth/forgot-password and /api/auth/resend-verification */
export interface EmailRequest {
  email: string;
}

/** POST /api/auth/reset-password */
export interface ResetPasswordRequest {
  token: string;
  password: string;
}

/** POST /api/auth/verify-email and /api/auth/confirm-email */
export interface TokenRequest {
  token: string;
}

export interface OkResponse {
  ok: boolean;
}

/** POST /api/auth/confirm-email: the address now on the account. */
export interface ConfirmEmailResponse extends OkResponse {
  email: string;
}

/** GET /api/auth/providers */
export interface ProvidersResponse {
  google: boolean;
}
