import { useMemo } from 'react';
import { invitationsApi } from '../../../api/invitationsApi';
import type { InvitationRole, InvitationView, InvitationWithLink } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useSessionStore } from '../../../stores/sessionStore';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';
import { fetchAndApply } from '../../../sync/dispatch';
import { copyToClipboard } from '../copyToClipboard';

/** Which screen invites: Users says 'User invited'; Invitations says 'Invitation created' and copies the link. */
export type InviteFrom = 'users' | 'invitations';

export interface InvitationActions {
  /** True when the invitation was created (the dialog closes). */
  invite: (email: string, role: InvitationRole, from: InviteFrom) => Promise<boolean>;
  copyLink: (invitation: InvitationView) => Promise<void>;
  resend: (invitation: InvitationView) => Promise<void>;
  remove: (invitation: InvitationView) => Promise<boolean>;
}

/** What the Users and Invitations pages do with invitations, with the spec's toasts. */
export function useInvitationActions(): InvitationActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { companyOrToast, success, failure, refusal } = toasts;
    const keep = (companyId: string) => (answer: InvitationWithLink) => {
      const store = useCompanyAdminStore.getState();
      if (store.companyId === companyId) store.upsertInvitation(answer.invitation);
    };

    return {
      async invite(email, role, from) {
        if (!useSessionStore.getState().user) {
          refusal('Unable to identify the current user');
          return false;
        }
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          const { link } = await fetchAndApply(
            () => invitationsApi.create(companyId, { email, role }),
            keep(companyId),
          );
          if (from === 'users') {
            success('User invited', `An invitation was sent to ${email}.`);
          } else if (await copyToClipboard(link)) {
            success(
              'Invitation created',
              `The invitation link has been copied to your clipboard. Share it with ${email}.`,
            );
          } else {
            success('Invitation created', `Share this invitation link with ${email}: ${link}`);
          }
          return true;
        } catch (error) {
          failure('Failed to invite user', error, 'Please try again later.');
          return false;
        }
      },

      async copyLink(invitation) {
        const companyId = companyOrToast();
        if (!companyId) return;
        try {
          const { link } = await invitationsApi.link(companyId, invitation.id);
          if (await copyToClipboard(link)) success('Invite link copied');
          else success('Invite link', `Copy this link: ${link}`);
        } catch (error) {
          failure('Failed to copy invite link', error);
        }
      },

      async resend(invitation) {
        const companyId = companyOrToast();
        if (!companyId) return;
        try {
          await fetchAndApply(() => invitationsApi.resend(companyId, invitation.id), keep(companyId));
          success(
            'Invitation resent',
            `A new link was sent to ${invitation.email}; the old one no longer works.`,
          );
        } catch (error) {
          failure('Failed to resend invitation', error, 'Please try again later.');
        }
      },

      async remove(invitation) {
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          await invitationsApi.remove(companyId, invitation.id);
          const store = useCompanyAdminStore.getState();
          if (store.companyId === companyId) store.removeInvitation(invitation.id);
          success('Invitation deleted');
          return true;
        } catch (error) {
          failure('Failed to delete invitation', error, 'An error occurred while deleting the invitation.');
          return false;
        }
      },
    };
  }, [toasts]);
}
