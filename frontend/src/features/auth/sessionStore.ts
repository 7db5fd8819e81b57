import { create } from 'zustand';
import { bootstrapApi } from '../../api/bootstrapApi';
import { ApiError } from '../../api/errors';
import { preloadSettled } from '../../boot/earlyRequests';
import { hasSessionHint } from '../../boot/startPage';
import { http } from '../../api/httpClient';
import { meApi } from '../../api/meApi';
import type { AuthResponse, User } from '../../api/contracts';
import { useAgentsStore } from '../agents/agentsStore';
import { useChatStore } from '../chat/chatStore';
import { primeCompanyData } from '../chat/chatSync';
import { useCompanyAdminStore } from '../company-admin/companyAdminStore';
import { readStoredCompanyId, useCompanyStore } from '../companies/companyStore';
import { fetchAndApply } from '../realtime/dispatch';

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
  /**
   * Restores the session from the refresh cookie, retrying transient failures. `chatScreen`: the page
   * opened is the chat, whose opening data comes with the profile (one answer, GET /api/bootstrap).
   */
  initialize: (options?: { chatScreen?: boolean }) => Promise<void>;
  /** Completes a sign-in or registration: keeps the token, then loads the profile and companies. */
  signIn: (auth: AuthResponse) => Promise<void>;
  /** Reloads the user and the company list from GET /api/me. */
  loadProfile: () => Promise<void>;
  setUser: (user: User) => void;
  signOut: () => void;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The profile and companies of a restored session and, on the chat, the screen's opening data (agents,
 * Active chats, the first chat's messages) in one request, for the company this browser used last.
 */
async function loadSession(chatScreen: boolean): Promise<void> {
  await fetchAndApply(
    () => bootstrapApi.get({ companyId: readStoredCompanyId() ?? undefined, chat: chatScreen }),
    ({ user, companies, chat }) => {
      useCompanyStore.getState().setCompanies(companies);
      useSessionStore.setState({ user });
      if (chat && chat.companyId === useCompanyStore.getState().currentCompanyId) primeCompanyData(chat);
    },
    chatScreen ? 'chat' : undefined,
  );
}

let initializing: Promise<void> | null = null;

/** The hint cookie the server sets beside the HttpOnly refresh cookie is here. */
export function mayHaveSession(): boolean {
  return typeof document === 'undefined' || hasSessionHint(document.cookie);
}

export const useSessionStore = create<SessionState>((set, get) => ({
  status: 'idle',
  user: null,

  initialize({ chatScreen = false } = {}) {
    initializing ??= (async () => {
      // No hint cookie: this browser holds no session, so the probe could only answer 401 (and log it).
      if (!mayHaveSession()) {
        set({ status: 'unauthenticated', user: null });
        return;
      }
      set({ status: 'loading' });
      // The preload script may have started the session check already: take its answer, not a second one.
      await preloadSettled();
      for (let attempt = 0; ; attempt += 1) {
        try {
          await http.refresh();
          await loadSession(chatScreen);
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
