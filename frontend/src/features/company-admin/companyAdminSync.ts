import { companyAdminApi } from '../../api/companyAdminApi';
import type { CompanyAgentView, CompanyDetails, InvitationView, MemberView } from '../../api/contracts';
import { MEMBER_PAGE_SIZE } from '@contracts/company-admin';
import { invitationsApi } from '../../api/invitationsApi';
import { PagedList, type PagedListSource } from '../../sync/pagedList';
import { useCompanyAdminStore } from '../../stores/companyAdminStore';
import { notifyInsightsTick } from '../../sync/insightsTicks';

/** An admin list's key: the company on screen. */
export interface AdminKey {
  companyId: string;
}

/** Company Users' key: the company and the search ('' for every member). */
export interface MemberKey extends AdminKey {
  search: string;
}

const store = () => useCompanyAdminStore.getState();

/**
 * The admin lists hold one company at a time: asking for another starts them afresh, and an answer
 * for a company no longer held is dropped. A resync of the 'admin' topic reloads them.
 */
const adminScope: Pick<PagedListSource<AdminKey, unknown>, 'hold' | 'holds' | 'topic'> = {
  hold: ({ companyId }) => {
    if (store().companyId !== companyId) store().reset(companyId);
  },
  holds: ({ companyId }) => store().companyId === companyId,
  topic: 'admin',
};

/** The company admin pages' lists; their rows are in the company admin store, where events update them. */
export const adminLists = {
  /** Company Users, paged and searched by the server (a company may have thousands of members). */
  members: new PagedList<MemberKey, MemberView>({
    ...adminScope,
    fetch: async ({ companyId, search }, cursor) => {
      const query = { search: search || undefined, limit: MEMBER_PAGE_SIZE };
      const page = await companyAdminApi.members(companyId, cursor ? { ...query, cursor } : query);
      return { items: page.members, nextCursor: page.nextCursor };
    },
    setFirstPage: ({ search }, page) => store().setMembers(page.items, page.nextCursor, search),
    appendPage: (_key, page) => store().appendMembers(page.items, page.nextCursor),
  }),
  /** Unpaged: one page. */
  invitations: new PagedList<AdminKey, InvitationView>({
    ...adminScope,
    fetch: async ({ companyId }) => ({ items: await invitationsApi.list(companyId), nextCursor: null }),
    setFirstPage: (_key, page) => store().setInvitations(page.items),
  }),
  agents: new PagedList<AdminKey, CompanyAgentView>({
    ...adminScope,
    fetch: async ({ companyId }) => ({ items: await companyAdminApi.agents(companyId), nextCursor: null }),
    setFirstPage: (_key, page) => store().setAgents(page.items),
  }),
  /** Company Details: a list of one, so that it loads, drops stale answers and resyncs as the others. */
  details: new PagedList<AdminKey, CompanyDetails>({
    ...adminScope,
    fetch: async ({ companyId }) => ({ items: [await companyAdminApi.details(companyId)], nextCursor: null }),
    setFirstPage: (_key, page) => store().setDetails(page.items[0]),
  }),
};

/**
 * After a reconnect the server could not recover (events may have been missed): the admin lists this tab
 * has loaded, again, for what is on screen. Not a user action: a failure leaves what is on screen.
 */
export async function resyncCompanyAdmin(): Promise<void> {
  const { companyId, members, invitations, agents, details } = store();
  // Events may have been missed: an open Insights page reads its numbers again too.
  notifyInsightsTick(null);
  if (!companyId) return;
  const loaded = [
    members.loaded && adminLists.members,
    invitations.loaded && adminLists.invitations,
    agents.loaded && adminLists.agents,
    details !== null && adminLists.details,
  ].filter((list) => list !== false);
  await Promise.allSettled(loaded.map((list) => list.refresh()));
}
