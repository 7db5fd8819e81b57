import { create } from 'zustand';
import { ApiError } from '../../api/errors';
import { http } from '../../api/httpClient';
import { meApi } from '../../api/meApi';
import type { AuthResponse, User } from '../../api/contracts';
import { useAgentsStore } from '../agents/agentsStore';
import { useChatStore } from '../chat/chatStore';
import { useCompanyAdminStore } from '../company-admin/companyAdminStore';
import { useCompanyStore } from '../companies/companyStore';

/** What belongs to the signed-in user's workspace goes with the session. */
function resetWorkspace(): void {
  useCompanyStore.getState().reset();
  useChatStore.getState().reset(null);
  useAgentsStore.getState().reset(null);
  useCompanyAdminStore.getState().reset(null);
}

/**
 * idle: nothing checked yet; loading: the session check (refresh + profile) is running;
 * error: the check failed for network or server reasons after its retries.
 */
export type SessionStatus = 'idle' | 'loading' | 'authenticated' | 'unauthenticated' | 'error';

export const SESSION_CHECK_RETRIES = 3;
export const SESSION_CHECK_RETRY_DELAY_MS = 2000;

interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** Restores the session from the refresh cookie, retrying transient failures. */
  initialize: () => Promise<void>;
  /** Completes a sign-in or registration: keeps the token, then loads the profile and companies. */
  signIn: (auth: AuthResponse) => Promise<void>;
  /** Reloads the user and the company list from GET /api/me. */
  loadProfile: () => Promise<void>;
  setUser: (user: User) => void;
  signOut: () => void;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let initializing: Promise<void> | null = null;

export const useSessionStore = create<SessionState>((set, get) => ({
  status: 'idle',
  user: null,

  initialize() {
    initializing ??= (async () => {
      set({ status: 'loading' });
      for (let attempt = 0; ; attempt += 1) {
        try {
          await http.refresh();
          await get().loadProfile();
          set({ status: 'authenticated' });
          return;
        } catch (error) {
          const transient = !(error instanceof ApiError) || error.isTransient;
          if (!transient) {
            http.clearSession();
            set({ status: 'unauthenticated', user: null });
            return;
          }
          if (attempt >= SESSION_CHECK_RETRIES) {
            set({ status: 'error' });
            return;
          }
          await wait(SESSION_CHECK_RETRY_DELAY_MS);
        }
      }
    })();
    return initializing;
  },

  async signIn(auth) {
    http.setSession(auth);
    set({ user: auth.user });
    try {
      await get().loadProfile();
    } catch {
      // The account is signed in even if the company list failed to load; the shell shows what it has.
    }
    set({ status: 'authenticated' });
  },

  async loadProfile() {
    const me = await meApi.get();
    useCompanyStore.getState().setCompanies(me.companies);
    set({ user: me.user });
  },

  setUser(user) {
    set({ user });
  },

  signOut() {
    http.clearSession();
    resetWorkspace();
    set({ status: 'unauthenticated', user: null });
  },
}));

// A session the server ended (the refresh was refused) signs this tab out. The token itself lives only
// in the http client.
http.onSessionChange((session, reason) => {
  if (!session && reason === 'expired' && useSessionStore.getState().status === 'authenticated') {
    resetWorkspace();
    useSessionStore.setState({ status: 'unauthenticated', user: null });
  }
});
