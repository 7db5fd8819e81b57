import { useSessionStore } from '../stores/sessionStore';
import { useCompanyAdminStore } from '../stores/companyAdminStore';
import { useCompanyStore } from '../stores/companyStore';
import type { CompanyEventName, ServerEvent } from '../sync/serverEvent';

const ADMIN_EVENTS = new Set<CompanyEventName>([
  'invitation.created',
  'invitation.updated',
  'invitation.deleted',
  'member.joined',
  'member.updated',
  'member.removed',
  'company.updated',
  'company.deleted',
  'company.sso_required',
]);

export type CompanyAdminEvent = Extract<
  ServerEvent,
  {
    name:
      | `invitation.${string}`
      | `member.${string}`
      | 'company.updated'
      | 'company.deleted'
      | 'company.sso_required';
  }
>;

export function isCompanyAdminEvent(event: ServerEvent): event is CompanyAdminEvent {
  return ADMIN_EVENTS.has(event.name);
}

/**
 * Invitation, member and company events. Unlike chat events they matter for every company of the user,
 * not only the one on screen: the user's own memberships (removed, role changed, company renamed) change
 * the company store whichever company is current; the admin lists follow only for the company they hold.
 * Idempotent, like every handler of the dispatch. Returns true when something was applied.
 */
export function applyCompanyAdminEvent(event: CompanyAdminEvent): boolean {
  const ownChange = applyOwnMembership(event);
  const admin = useCompanyAdminStore.getState();
  if (admin.companyId !== event.payload.companyId) return ownChange;

  switch (event.name) {
    case 'invitation.created':
    case 'invitation.updated':
      admin.upsertInvitation(event.payload.invitation);
      break;
    case 'invitation.deleted':
      admin.removeInvitation(event.payload.invitationId);
      break;
    case 'member.joined': {
      const isNew = !admin.members.items.some((m) => m.userId === event.payload.member.userId);
      admin.upsertMember(event.payload.member);
      if (isNew && admin.details)
        admin.setDetails({ ...admin.details, memberCount: admin.details.memberCount + 1 });
      break;
    }
    case 'member.updated':
      admin.upsertMember(event.payload.member);
      break;
    case 'member.removed':
      admin.removeMember(event.payload.userId);
      break;
    case 'company.updated':
      admin.renameCompany(event.payload.name);
      break;
    case 'company.deleted':
      // The company store moved the user elsewhere; the admin lists follow the new current company.
      break;
    case 'company.sso_required':
      // The admin pages give way to the single sign-on notice (or load afresh when it is lifted).
      break;
  }
  return true;
}

/** The signed-in user's own memberships, in the company store (the menu, the header, the current company). */
function applyOwnMembership(event: CompanyAdminEvent): boolean {
  const companies = useCompanyStore.getState();
  const userId = useSessionStore.getState().user?.id;
  const company = companies.companies.find((c) => c.id === event.payload.companyId);
  if (!company) return false;
  switch (event.name) {
    case 'company.updated':
      companies.renameCompany(company.id, event.payload.name);
      return true;
    case 'member.updated':
      if (event.payload.member.userId !== userId) return false;
      companies.upsertCompany({ ...company, role: event.payload.member.role });
      return true;
    case 'member.removed':
      if (event.payload.userId !== userId) return false;
      companies.removeCompany(company.id);
      return true;
    case 'company.deleted':
      companies.removeCompany(company.id);
      return true;
    case 'company.sso_required':
      companies.setSsoRequired(company.id, event.payload.required);
      return true;
    default:
      return false;
  }
}

/** What to tell the user about a change to their own membership, read before the event is applied. */
export interface MembershipNotice {
  title: string;
  description: string;
}

export function describeOwnMembershipChange(event: ServerEvent): MembershipNotice | null {
  if (event.name !== 'member.removed' && event.name !== 'company.deleted') return null;
  const userId = useSessionStore.getState().user?.id;
  if (!userId) return null;
  if (event.name === 'member.removed' && event.payload.userId !== userId) return null;
  const { companies, currentCompanyId } = useCompanyStore.getState();
  const removed = companies.find((c) => c.id === event.payload.companyId);
  if (!removed) return null;
  const remaining = companies.filter((c) => c.id !== removed.id);
  const next = removed.id === currentCompanyId ? remaining[0] : undefined;
  const deleted = event.name === 'company.deleted';
  return {
    title: deleted ? 'Company deleted' : 'Removed from company',
    description:
      (deleted
        ? `${removed.name} was deleted by a platform administrator.`
        : `You are no longer a member of ${removed.name}.`) +
      (next
        ? ` You are now viewing ${next.name}.`
        : remaining.length === 0
          ? ' You belong to no company now.'
          : ''),
  };
}
