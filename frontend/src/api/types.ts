export interface User {
  id: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  bio: string;
  /** URL; '/placeholder.svg' when the user has none. */
  avatar: string;
  isSuperadmin: boolean;
}

export type CompanyRole = 'owner' | 'admin' | 'user';

export interface CompanyMembership {
  id: string;
  name: string;
  role: CompanyRole;
  createdAt: string;
}

export interface AuthResponse {
  accessToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  user: User;
}

export interface MeResponse {
  user: User;
  companies: CompanyMembership[];
}

export interface ProvidersResponse {
  google: boolean;
}

export interface ApiErrorBody {
  statusCode?: number;
  error?: string;
  message?: string | string[];
}
