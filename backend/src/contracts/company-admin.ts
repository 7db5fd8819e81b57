import type { CompanyQuotaUsage } from './company-quotas';
import type { CompanyRole } from './companies';
import type { PersonRef } from './invitations';

/**
 * Company administration, under /api/company (the company named by X-Company-Id). Only owners and admins
 * of that company: plain members get 403, non-members 404 'Company not found'.
 */

/** A row of the Company Users table: GET /api/company/members. */
export interface MemberView {
  userId: string;
  /** First and last name, or 'Unnamed User'. */
  name: string;
  email: string;
  /** URL; '/placeholder.svg' when the member has none. */
  avatar: string;
  role: CompanyRole;
  joinedAt: string;
}

/**
 * GET /api/company/members: oldest member first (the founder at the top), a page at a time; `search`
 * keeps the members whose name or email contains it.
 */
export interface MemberListQuery {
  search?: string;
  /** 50 by default, at most 200. */
  limit?: number;
  /** The `nextCursor` of the page before; absent for the first page. */
  cursor?: string;
}

export const MEMBER_PAGE_SIZE = 50;

export interface MemberPage {
  members: MemberView[];
  /** Opaque: pass it as `cursor` for the next page; null when this page is the last. */
  nextCursor: string | null;
}

/**
 * PATCH /api/company/members/:userId. Only an owner makes or unmakes an owner; an admin cannot change or
 * remove an owner; the company always keeps at least one owner (409 otherwise).
 */
export interface UpdateMemberRoleRequest {
  role: CompanyRole;
}

/** PATCH /api/company: rename (answers the CompanyDetails). */
export interface UpdateCompanyRequest {
  name: string;
}

/** GET /api/company/details */
export interface CompanyDetails {
  id: string;
  name: string;
  createdAt: string;
  owner: PersonRef | null;
  memberCount: number;
  agentCount: number;
  /** The company's quotas (a platform admin sets them) and what it uses of them. */
  quotas: CompanyQuotaUsage;
}

/**
 * A row of the Company Agents table: every agent of the company, whoever owns it (webhooks and secrets
 * are not shown here; they stay with the agent's owner).
 */
export interface CompanyAgentView {
  id: string;
  companyId: string;
  name: string;
  description: string;
  avatar: string;
  isActive: boolean;
  isDefault: boolean;
  /** The member whose agent it is; null when their account is gone. */
  owner: PersonRef | null;
  createdAt: string;
}

/**
 * POST /api/company/agents: a real agent owned by the caller in this company. Its webhook is the
 * installation's DEFAULT_AGENT_WEBHOOK when set, else none (the built-in demo agent answers); its owner
 * can set a webhook later in their agent settings.
 */
export interface CreateCompanyAgentRequest {
  name: string;
  description: string;
}

/** PATCH /api/company/agents/:id */
export interface UpdateCompanyAgentRequest {
  isActive: boolean;
}
