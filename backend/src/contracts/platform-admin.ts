import type { CompanyQuotaUsage } from './company-quotas';
import type { MemberView } from './company-admin';
import type { PersonRef } from './invitations';

/**
 * Platform administration of users, companies and agents, under /api/admin (superadmins only: 403 for
 * everyone else). Lists are paged by an opaque cursor: pass `nextCursor` back as `cursor`; null at the end.
 */

/** A row of User Management: GET /api/admin/users?search=&cursor=&limit= (ordered by email). */
export interface PlatformUserView {
  id: string;
  /** First and last name; '' when the account has none. */
  name: string;
  email: string;
  /** URL; '/placeholder.svg' when the account has none. */
  avatar: string;
  isSuperadmin: boolean;
  disabled: boolean;
  /** ISO time, or null: never signed in. */
  lastLogin: string | null;
  createdAt: string;
}

export interface PlatformUserPage {
  users: PlatformUserView[];
  nextCursor: string | null;
}

/** Default and largest page of the admin lists. */
export const PLATFORM_PAGE_SIZE = 50;
export const PLATFORM_PAGE_SIZE_MAX = 100;

/**
 * POST /api/admin/users/invitations: creates the account without a password and mails the invitee a
 * link to choose one. 409 when the address already has an account. Answers the new row.
 */
export interface InvitePlatformUserRequest {
  name: string;
  email: string;
}

/**
 * PATCH /api/admin/users/:id, one change at a time. `isSuperadmin`: promote or demote (409 for the last
 * active superadmin). `disabled`: a disabled account's sessions and sockets end at once and it cannot sign
 * in (refused for oneself and for the last active superadmin). Answers the updated row.
 */
export interface UpdatePlatformUserRequest {
  isSuperadmin?: boolean;
  disabled?: boolean;
}

/** A row of Company Management: GET /api/admin/companies?search=&cursor= (newest first). */
export interface PlatformCompanyView {
  id: string;
  name: string;
  userCount: number;
  /** Single sign-on through the company's own provider is on (POST .../sso/disable turns it off). */
  usesSso: boolean;
  createdAt: string;
}

export interface PlatformCompanyPage {
  companies: PlatformCompanyView[];
  nextCursor: string | null;
}

/** POST /api/admin/companies: the owner must already have an account (404 'No user with that email'). */
export interface CreatePlatformCompanyRequest {
  name: string;
  ownerEmail: string;
}

/** GET /api/admin/companies/:id (View Details). */
export interface PlatformCompanyDetails extends PlatformCompanyView {
  /** The company's recorded owner; null when that account is gone. */
  owner: (PersonRef & { email: string }) | null;
  memberCount: number;
  agentCount: number;
  chatCount: number;
  /** The company's quotas (set here by a platform admin) and what it uses of them. */
  quotas: CompanyQuotaUsage;
}

/** A row of Manage Users: GET /api/admin/companies/:id/members (owners first, then by join date). */
/** A member as Platform Admin → Companies lists them: the same view as Company Admin's users. */
export type PlatformCompanyMemberView = MemberView;

/**
 * A row of the Agents page: GET /api/admin/agents?companyId=&cursor= (newest first). Read-only, and the
 * webhook is shown by its host only: never the full URL (it may carry a key) nor the signing secret.
 */
export interface PlatformAgentView {
  id: string;
  name: string;
  company: { id: string; name: string };
  /** Null when the owner's account is gone. */
  owner: (PersonRef & { email: string }) | null;
  /** 'hooks.example.com' (with the port when it has one); null when the agent has no webhook. */
  webhookHost: string | null;
  /** The voice (ElevenLabs) agent id, or null. */
  voiceId: string | null;
  isActive: boolean;
  isDefault: boolean;
  createdAt: string;
}

export interface PlatformAgentPage {
  agents: PlatformAgentView[];
  nextCursor: string | null;
}
