import type { PlatformUserView } from '@contracts/platform-admin';
import { create } from 'zustand';
import { appendNew } from './listRows';

interface UsersState {
  /** The rows loaded so far for `search`, in the server's order (by email). */
  users: PlatformUserView[];
  search: string;
  /** The next page's cursor; null when every row is loaded. */
  nextCursor: string | null;
  /** The first page for this search has answered. */
  loaded: boolean;
  /** A new search: the rows of its first page. */
  setFirstPage: (search: string, users: PlatformUserView[], nextCursor: string | null) => void;
  appendPage: (users: PlatformUserView[], nextCursor: string | null) => void;
  /** A row the server answered after a change (or a new account): replaced in place, or put in email order. */
  upsertUser: (user: PlatformUserView) => void;
  reset: () => void;
}

function byEmail(a: PlatformUserView, b: PlatformUserView): number {
  return a.email < b.email ? -1 : a.email > b.email ? 1 : 0;
}

export const usePlatformUsersStore = create<UsersState>((set, get) => ({
  users: [],
  search: '',
  nextCursor: null,
  loaded: false,
  setFirstPage(search, users, nextCursor) {
    set({ search, users, nextCursor, loaded: true });
  },
  appendPage(users, nextCursor) {
    set({ users: appendNew(get().users, users, (u) => u.id), nextCursor });
  },
  upsertUser(user) {
    const { users, nextCursor } = get();
    if (users.some((u) => u.id === user.id)) {
      set({ users: users.map((u) => (u.id === user.id ? user : u)) });
      return;
    }
    // A new row beyond the last loaded one belongs to a page not loaded yet: it shows when that page does.
    const last = users[users.length - 1];
    if (nextCursor && last && user.email > last.email) return;
    set({ users: [...users, user].sort(byEmail) });
  },
  reset() {
    set({ users: [], search: '', nextCursor: null, loaded: false });
  },
}));
