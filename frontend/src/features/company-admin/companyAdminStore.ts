import { create } from 'zustand';
import type { CompanyAgentView, CompanyDetails, InvitationView, MemberView } from '../../api/contracts';

/** One list of the admin pages: its rows, and whether its first load has answered. */
export interface AdminList<T> {
  items: T[];
  loaded: boolean;
}

const emptyList = <T>(): AdminList<T> => ({ items: [], loaded: false });

interface CompanyAdminState {
  /** The company these lists belong to; events and late answers for another company are dropped. */
  companyId: string | null;
  members: AdminList<MemberView>;
  invitations: AdminList<InvitationView>;
  agents: AdminList<CompanyAgentView>;
  details: CompanyDetails | null;
  reset: (companyId: string | null) => void;
  setMembers: (members: MemberView[]) => void;
  upsertMember: (member: MemberView) => void;
  removeMember: (userId: string) => void;
  setInvitations: (invitations: InvitationView[]) => void;
  upsertInvitation: (invitation: InvitationView) => void;
  removeInvitation: (invitationId: string) => void;
  setAgents: (agents: CompanyAgentView[]) => void;
  upsertAgent: (agent: CompanyAgentView) => void;
  setDetails: (details: CompanyDetails) => void;
  /** The company's new name, wherever this store shows it. */
  renameCompany: (name: string) => void;
}

function upsert<T>(list: AdminList<T>, item: T, same: (a: T) => boolean, prepend = false): AdminList<T> {
  const exists = list.items.some(same);
  if (exists) return { ...list, items: list.items.map((x) => (same(x) ? item : x)) };
  return { ...list, items: prepend ? [item, ...list.items] : [...list.items, item] };
}

export const useCompanyAdminStore = create<CompanyAdminState>((set, get) => ({
  companyId: null,
  members: emptyList(),
  invitations: emptyList(),
  agents: emptyList(),
  details: null,
  reset(companyId) {
    set({
      companyId,
      members: emptyList(),
      invitations: emptyList(),
      agents: emptyList(),
      details: null,
    });
  },
  setMembers(items) {
    set({ members: { items, loaded: true } });
  },
  upsertMember(member) {
    set({ members: upsert(get().members, member, (m) => m.userId === member.userId) });
  },
  removeMember(userId) {
    const { members, details } = get();
    const had = members.items.some((m) => m.userId === userId);
    set({
      members: { ...members, items: members.items.filter((m) => m.userId !== userId) },
      details: details && had ? { ...details, memberCount: Math.max(0, details.memberCount - 1) } : details,
    });
  },
  setInvitations(items) {
    set({ invitations: { items, loaded: true } });
  },
  upsertInvitation(invitation) {
    // Newest first, as the list is served.
    set({ invitations: upsert(get().invitations, invitation, (i) => i.id === invitation.id, true) });
  },
  removeInvitation(invitationId) {
    const { invitations } = get();
    set({ invitations: { ...invitations, items: invitations.items.filter((i) => i.id !== invitationId) } });
  },
  setAgents(items) {
    set({ agents: { items, loaded: true } });
  },
  upsertAgent(agent) {
    set({ agents: upsert(get().agents, agent, (a) => a.id === agent.id, true) });
  },
  setDetails(details) {
    set({ details });
  },
  renameCompany(name) {
    const { details } = get();
    if (details) set({ details: { ...details, name } });
  },
}));
