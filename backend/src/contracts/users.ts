import type { CompanyMembership } from './companies';

export interface User {
  id: string;
  email: string;
  /** First and last name joined by a space. */
  name: string;
  firstName: string;
  lastName: string;
  bio: string;
  /** URL; '/placeholder.svg' when the user has none. */
  avatar: string;
  isSuperadmin: boolean;
  /** The owner of the address has proved it. */
  emailVerified: boolean;
  /** An email change waiting for its confirmation link; `email` changes only when it is followed. */
  pendingEmail: string | null;
}

/** GET /api/me */
export interface MeResponse {
  user: User;
  companies: CompanyMembership[];
}

/** PATCH /api/me: only the fields given change; a new email needs the current password. */
export interface UpdateProfileRequest {
  name?: string;
  email?: string;
  bio?: string;
  currentPassword?: string;
}

/** POST /api/me/password */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}
