import { inCompany } from './companyScope';
import type {
  AcceptInvitationResponse,
  CreateInvitationRequest,
  InvitationLinkResponse,
  InvitationLookup,
  InvitationView,
  InvitationWithLink,
  RegisterInvitedRequest,
  RegisterResponse,
} from './contracts';
import { http } from './httpClient';

const invitationPath = (id: string) => `/api/company/invitations/${encodeURIComponent(id)}`;

/** Company Invitations (owners and admins of the company) and the invitation page's public calls. */
export const invitationsApi = {
  list: (companyId: string) => http.get<InvitationView[]>('/api/company/invitations', inCompany(companyId)),
  create: (companyId: string, request: CreateInvitationRequest) =>
    http.post<InvitationWithLink>('/api/company/invitations', request, inCompany(companyId)),
  resend: (companyId: string, id: string) =>
    http.post<InvitationWithLink>(`${invitationPath(id)}/resend`, undefined, inCompany(companyId)),
  link: (companyId: string, id: string) =>
    http.get<InvitationLinkResponse>(`${invitationPath(id)}/link`, inCompany(companyId)),
  remove: (companyId: string, id: string) => http.delete<void>(invitationPath(id), inCompany(companyId)),

  /** Public: what the invitation page shows (404 'Invalid or expired invitation'). */
  lookup: (token: string) =>
    http.get<InvitationLookup>(`/api/invitations/lookup?token=${encodeURIComponent(token)}`, {
      auth: false,
    }),
  accept: (token: string) => http.post<AcceptInvitationResponse>('/api/invitations/accept', { token }),
  /**
   * Public: the invited address's account, joined and signed in (answers like login); or 202 when the
   * link was a manager's copy and REQUIRE_EMAIL_VERIFICATION waits for the mailed link first.
   */
  registerInvited: (request: RegisterInvitedRequest) =>
    http.post<RegisterResponse>('/api/auth/register-invited', request, { auth: false }),
};
