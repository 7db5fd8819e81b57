import type { CompanyRole } from './companies';

/** The roles an inviter may give: never owner. */
export type InvitationRole = Exclude<CompanyRole, 'owner'>;
export type InvitationStatus = 'pending' | 'accepted' | 'rejected' | 'expired';

/** A person named on a view (inviter, owner); `name` falls back to 'Unnamed User'. */
export interface PersonRef {
  id: string;
  name: string;
}

/** A row of the Company Invitations table. */
export interface InvitationView {
  id: string;
  companyId: string;
  email: string;
  role: InvitationRole;
  /** A pending invitation past `expiresAt` is stored and shown as 'expired' when the list loads. */
  status: InvitationStatus;
  /** Null when the inviter's account is gone. */
  invitedBy: PersonRef | null;
  /** ISO time: the end (23:59:59.999, server local time) of the 30th day after creation or resend. */
  expiresAt: string;
  createdAt: string;
}

/** POST /api/company/invitations */
export interface CreateInvitationRequest {
  email: string;
  role: InvitationRole;
}

/** 201 from POST /api/company/invitations and 200 from POST /api/company/invitations/:id/resend. */
export interface InvitationWithLink {
  invitation: InvitationView;
  /** `{APP_ORIGIN}/invitation?token=...`: the link that was emailed. */
  link: string;
}

/** GET /api/company/invitations/:id/link (pending invitations only; otherwise 409). */
export interface InvitationLinkResponse {
  link: string;
}

/** GET /api/invitations/lookup?token=... (public); 404 'Invalid or expired invitation' otherwise. */
export interface InvitationLookup {
  companyId: string;
  companyName: string;
  email: string;
  role: InvitationRole;
  /** Null when the inviter's account is gone. */
  inviterName: string | null;
  expiresAt: string;
  /** An account with the invited email exists: offer sign-in (then accept) instead of sign-up. */
  accountExists: boolean;
}

/** POST /api/invitations/accept (signed in, with the invited email). */
export interface AcceptInvitationRequest {
  token: string;
}

/** The company the caller now belongs to, and their role in it. */
export interface AcceptInvitationResponse {
  companyId: string;
  companyName: string;
  role: CompanyRole;
}

/**
 * POST /api/auth/register-invited (public): makes the account of the invited email (no company of its
 * own), joins the company and accepts the invitation; answers like login (AuthResponse + refresh cookie).
 * The account's address is verified only through the mailed link's token; through a manager's copy it is
 * not, a link to choose the password is mailed, and with REQUIRE_EMAIL_VERIFICATION the answer is 202
 * VerificationRequiredResponse (no session). 409 when the email already has an account.
 */
export interface RegisterInvitedRequest {
  token: string;
  firstName: string;
  lastName: string;
  password: string;
}
