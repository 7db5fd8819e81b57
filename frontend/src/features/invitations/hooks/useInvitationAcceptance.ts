import { useMemo } from 'react';
import { companiesApi } from '../../../api/companiesApi';
import type { CompanyRole, InvitationLookup, RegisterInvitedRequest } from '../../../api/contracts';
import { isVerificationRequired } from '../../../api/authApi';
import { ApiError } from '../../../api/errors';
import { invitationsApi } from '../../../api/invitationsApi';
import { safeRedirectPath } from '../../../lib/safeRedirect';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useCompanyStore } from '../../../stores/companyStore';
import { signIn } from '../../../workspace/session';

/** Where a new member goes: a safe `redirect`, else Company Admin for managers, else the chat. */
export function landingAfterJoining(role: CompanyRole, companyId: string, redirect: string | null): string {
  const safe = safeRedirectPath(redirect);
  if (safe) return safe;
  return role === 'owner' || role === 'admin'
    ? `/company/admin?company=${encodeURIComponent(companyId)}`
    : '/chat';
}

/**
 * What happened to an accept: where to go next, that the page should say the invitation is invalid, or
 * (a sign-up through a copied link, with email verification required) that a mailed link comes first.
 */
export type AcceptOutcome =
  | { kind: 'joined'; to: string }
  | { kind: 'check-email'; email: string }
  | { kind: 'invalid' }
  | { kind: 'failed' };

export interface InvitationAcceptance {
  accept: (token: string, redirect: string | null) => Promise<AcceptOutcome>;
  register: (
    request: RegisterInvitedRequest,
    invitation: InvitationLookup,
    redirect: string | null,
  ) => Promise<AcceptOutcome>;
}

/** Accepting an invitation signed in, or by registering the invited address; then into that company. */
export function useInvitationAcceptance(): InvitationAcceptance {
  const { success, failure, refusal } = useActionToasts();

  return useMemo(() => {
    const joined = async (companyId: string, companyName: string, role: CompanyRole) => {
      const store = useCompanyStore.getState();
      try {
        store.upsertCompany(await companiesApi.get(companyId));
      } catch {
        // The membership exists; its view is rebuilt from what the accept answered.
        store.upsertCompany({ id: companyId, name: companyName, role, createdAt: new Date().toISOString() });
      }
      useCompanyStore.getState().setCurrentCompany(companyId);
      success('Invitation accepted', `You have successfully joined ${companyName}.`);
    };
    const invalid = (error: unknown) =>
      error instanceof ApiError && (error.status === 404 || error.status === 410);

    return {
      async accept(token, redirect) {
        try {
          const result = await invitationsApi.accept(token);
          await joined(result.companyId, result.companyName, result.role);
          return { kind: 'joined', to: landingAfterJoining(result.role, result.companyId, redirect) };
        } catch (error) {
          if (invalid(error)) {
            refusal('Invalid invitation', 'The invitation is invalid or has expired.');
            return { kind: 'invalid' };
          }
          failure('Failed to accept invitation', error);
          return { kind: 'failed' };
        }
      },

      async register(request, invitation, redirect) {
        try {
          const auth = await invitationsApi.registerInvited(request);
          if (isVerificationRequired(auth)) return { kind: 'check-email', email: auth.email };
          await signIn(auth);
          await joined(invitation.companyId, invitation.companyName, invitation.role);
          return { kind: 'joined', to: landingAfterJoining(invitation.role, invitation.companyId, redirect) };
        } catch (error) {
          if (invalid(error)) {
            refusal('Invalid invitation', 'The invitation is invalid or has expired.');
            return { kind: 'invalid' };
          }
          failure('Registration failed', error, 'Please try again later');
          return { kind: 'failed' };
        }
      },
    };
  }, [success, failure, refusal]);
}
