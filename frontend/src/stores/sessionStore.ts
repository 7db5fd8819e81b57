import { create } from 'zustand';
import type { User } from '../api/contracts';

/**
 * idle: nothing checked yet; loading: the session check (refresh + profile) is running;
 * error: the check failed for network or server reasons after its retries.
 */
export type SessionStatus = 'idle' | 'loading' | 'authenticated' | 'unauthenticated' | 'error';

/**
 * Who is signed in. Signing in and out, and the session check at start, are the workspace's
 * (workspace/session.ts): they also fill and empty the other stores.
 */
interface SessionState {
  status: SessionStatus;
  user: User | null;
  setStatus: (status: SessionStatus) => void;
  setUser: (user: User) => void;
  /** Signed out: no user. */
  reset: () => void;
}

export const useSessionStore = create<SessionState>((set) => ({
  status: 'idle',
  user: null,
  setStatus(status) {
    set({ status });
  },
  setUser(user) {
    set({ user });
  },
  reset() {
    set({ status: 'unauthenticated', user: null });
  },
}));
