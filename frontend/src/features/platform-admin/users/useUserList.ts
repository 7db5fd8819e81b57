import type { PlatformUserView } from '@contracts/platform-admin';
import { ADMIN_PAGE_SIZE, usePagedList, type PagedListLoad } from '../../../hooks/usePagedList';
import { PagedList } from '../../../sync/pagedList';
import { usersApi } from './usersApi';
import { usePlatformUsersStore } from '../../../stores/platformUsersStore';

/** User Management's rows for a search (by email); they are in the users store. */
const users = new PagedList<string, PlatformUserView>({
  fetch: async (search, cursor) => {
    const page = await usersApi.list({ search, cursor, limit: ADMIN_PAGE_SIZE });
    return { items: page.users, nextCursor: page.nextCursor };
  },
  setFirstPage: (search, page) =>
    usePlatformUsersStore.getState().setFirstPage(search, page.items, page.nextCursor),
  appendPage: (_search, page) => usePlatformUsersStore.getState().appendPage(page.items, page.nextCursor),
});

/**
 * User Management's rows for a search, a page at a time (the server searches and pages: there may be
 * thousands of accounts).
 */
export function useUserList(search: string, onError?: (message: string) => void): PagedListLoad {
  return usePagedList(users, search, onError);
}
