import { create } from 'zustand';
import type { CompanyAgentView, CompanyDetails, InvitationView, MemberView } from '../api/contracts';
import { appendNew } from './listRows';

/** One list of the admin pages: its rows, and whether its first load has answered. */
export interface AdminList<T> {
  items: T[];
  loaded: boolean;
}

const emptyList = <T>(): AdminList<T> => ({ items: [], loaded: false });

/** Company Users, a page at a time from the server, for one search. */
export interface MemberList extends AdminList<MemberView> {
  /** The search these rows answer ('' for all members). */
  search: string;
  /** The next page's cursor; null once the last page is in. */
  nextCursor: string | null;
}

const emptyMembers = (): MemberList => ({ ...emptyList<MemberView>(), search: '', nextCursor: null });

interface CompanyAdminState {
  /** The company these lists belong to; events and late answers for another company are dropped. */
  companyId: string | null;
  members: MemberList;
  invitations: AdminList<InvitationView>;
  agents: AdminList<CompanyAgentView>;
  details: CompanyDetails | null;
  reset: (companyId: string | null) => void;
  /** The first page for a search (replaces what was loaded). */
  setMembers: (members: MemberView[], nextCursor?: string | null, search?: string) => void;
  /** The next page (merged by user id: a copy an event brought meanwhile stays). */
  appendMembers: (members: MemberView[], nextCursor: string | null) => void;
  /**
   * A member's new state. One not loaded yet is added only when every page is in and no search
   * narrows the list (oldest first: a new member belongs to the last page, which brings it).
   */
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
  members: emptyMembers(),
  invitations: emptyList(),
  agents: emptyList(),
  details: null,
  reset(companyId) {
    set({
      companyId,
      members: emptyMembers(),
      invitations: emptyList(),
      agents: emptyList(),
      details: null,
    });
  },
  setMembers(items, nextCursor = null, search = '') {
    set({ members: { items, loaded: true, nextCursor, search } });
  },
  appendMembers(items, nextCursor) {
    const { members } = get();
    set({ members: { ...members, items: appendNew(members.items, items, (m) => m.userId), nextCursor } });
  },
  upsertMember(member) {
    const { members } = get();
    const known = members.items.some((m) => m.userId === member.userId);
    if (!known && (members.nextCursor !== null || members.search !== '')) return;
    set({ members: { ...members, ...upsert(members, member, (m) => m.userId === member.userId) } });
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
