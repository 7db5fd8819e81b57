import { companyAdminApi } from '../../api/companyAdminApi';
import { MEMBER_PAGE_SIZE } from '@contracts/company-admin';
import { invitationsApi } from '../../api/invitationsApi';
import { fetchAndApply } from '../../sync/dispatch';
import { useCompanyAdminStore } from '../../stores/companyAdminStore';

/** The admin lists hold one company at a time: a switch starts them afresh. */
export function holdAdminCompany(companyId: string): void {
  if (useCompanyAdminStore.getState().companyId !== companyId)
    useCompanyAdminStore.getState().reset(companyId);
}

const isCurrent = (companyId: string) => useCompanyAdminStore.getState().companyId === companyId;

/** Loads of the admin pages; they throw, and the page says what failed. Events meanwhile win. */
export const adminLoaders = {
  /** Company Users' first page for `search` (by default the search on screen, for a resync). */
  async members(companyId: string, search?: string): Promise<void> {
    holdAdminCompany(companyId);
    const wanted = search ?? useCompanyAdminStore.getState().members.search;
    await fetchAndApply(
      () => companyAdminApi.members(companyId, { search: wanted || undefined, limit: MEMBER_PAGE_SIZE }),
      (page) => {
        if (isCurrent(companyId))
          useCompanyAdminStore.getState().setMembers(page.members, page.nextCursor, wanted);
      },
      'admin',
    );
  },
  async invitations(companyId: string): Promise<void> {
    holdAdminCompany(companyId);
    await fetchAndApply(
      () => invitationsApi.list(companyId),
      (invitations) => {
        if (isCurrent(companyId)) useCompanyAdminStore.getState().setInvitations(invitations);
      },
      'admin',
    );
  },
  async agents(companyId: string): Promise<void> {
    holdAdminCompany(companyId);
    await fetchAndApply(
      () => companyAdminApi.agents(companyId),
      (agents) => {
        if (isCurrent(companyId)) useCompanyAdminStore.getState().setAgents(agents);
      },
      'admin',
    );
  },
  async details(companyId: string): Promise<void> {
    holdAdminCompany(companyId);
    await fetchAndApply(
      () => companyAdminApi.details(companyId),
      (details) => {
        if (isCurrent(companyId)) useCompanyAdminStore.getState().setDetails(details);
      },
      'admin',
    );
  },
};

export type AdminListName = keyof typeof adminLoaders;

/**
 * Company Users' next page, for the search on screen. Dropped when the list was loaded again meanwhile
 * (another search, a resync): its cursor is no longer the list's.
 */
export async function loadMoreMembers(companyId: string): Promise<void> {
  const { members } = useCompanyAdminStore.getState();
  const cursor = members.nextCursor;
  if (!cursor || !isCurrent(companyId)) return;
  await fetchAndApply(
    () =>
      companyAdminApi.members(companyId, {
        search: members.search || undefined,
        cursor,
        limit: MEMBER_PAGE_SIZE,
      }),
    (page) => {
      const now = useCompanyAdminStore.getState().members;
      if (!isCurrent(companyId) || now.nextCursor !== cursor || now.search !== members.search) return;
      useCompanyAdminStore.getState().appendMembers(page.members, page.nextCursor);
    },
  );
}

/**
 * After a reconnect the server could not recover (events may have been missed): the admin lists this tab
 * has loaded, again. Not a user action: a failure leaves what is on screen.
 */
export async function resyncCompanyAdmin(): Promise<void> {
  const { companyId, members, invitations, agents, details } = useCompanyAdminStore.getState();
  if (!companyId) return;
  const loaded: AdminListName[] = [];
  if (members.loaded) loaded.push('members');
  if (invitations.loaded) loaded.push('invitations');
  if (agents.loaded) loaded.push('agents');
  if (details) loaded.push('details');
  await Promise.allSettled(loaded.map((name) => adminLoaders[name](companyId)));
}
