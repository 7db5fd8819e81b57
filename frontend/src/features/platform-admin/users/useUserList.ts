import type { PlatformUserView } from '@contracts/platform-admin';
import { usePagedList, type PagedListLoad, type PagedSource } from '../../../hooks/usePagedList';
import { usersApi } from './usersApi';
import { usePlatformUsersStore } from '../../../stores/platformUsersStore';

const users: PagedSource<string, PlatformUserView> = {
  fetch: async (search, cursor, limit) => {
    const page = await usersApi.list({ search, cursor, limit });
    return { items: page.users, nextCursor: page.nextCursor };
  },
  setFirstPage: (search, page) =>
    usePlatformUsersStore.getState().setFirstPage(search, page.items, page.nextCursor),
  appendPage: (page) => usePlatformUsersStore.getState().appendPage(page.items, page.nextCursor),
  nextCursor: () => usePlatformUsersStore.getState().nextCursor,
};

/**
 * User Management's rows for a search, a page at a time (the server searches and pages: there may be
 * thousands of accounts). The rows are in the users store.
 */
export function useUserList(search: string, onError?: (message: string) => void): PagedListLoad {
  return usePagedList(users, search, onError);
}
