import { bootstrapApi } from '../api/bootstrapApi';
import type { AuthResponse, SyncMarkers } from '../api/contracts';
import { preloadSettled } from '../boot/earlyRequests';
import { hasSessionHint } from '../boot/startPage';
import { ApiError } from '../api/errors';
import { http } from '../api/httpClient';
import { meApi } from '../api/meApi';
import { useAgentsStore } from '../stores/agentsStore';
import { useChatStore } from '../stores/chatStore';
import { useCompanyAdminStore } from '../stores/companyAdminStore';
import { readStoredCompanyId, useCompanyStore } from '../stores/companyStore';
import { usePlatformUsersStore } from '../stores/platformUsersStore';
import { useSearchStore } from '../stores/searchStore';
import { useSessionStore } from '../stores/sessionStore';
import { useStreamingStore } from '../stores/streamingStore';
import { fetchAndApply, startEventSync } from '../sync/dispatch';
import { applyServerEvent } from './applyServerEvent';
import { primeCompanyData } from './companyData';

export const SESSION_CHECK_RETRIES = 3;
export const SESSION_CHECK_RETRY_DELAY_MS = 2000;

/**
 * What belongs to the signed-in user's workspace goes with the session. The theme (this browser's) and
 * the appearance (the installation's) stay; a voice call ends with its own session.
 */
function resetWorkspace(): void {
  useCompanyStore.getState().reset();
  useChatStore.getState().reset(null);
  useStreamingStore.getState().reset();
  useAgentsStore.getState().reset(null);
  useCompanyAdminStore.getState().reset(null);
  useSearchStore.getState().clear();
  usePlatformUsersStore.getState().reset();
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The profile and companies of a restored session and, on the chat, the screen's opening data (agents,
 * Active chats, the first chat's messages) in one request, for the company this browser used last.
 */
async function loadSession(chatScreen: boolean): Promise<void> {
  let primed: SyncMarkers | null = null;
  await fetchAndApply(
    () => bootstrapApi.get({ companyId: readStoredCompanyId() ?? undefined, chat: chatScreen }),
    ({ user, companies, chat }) => {
      useCompanyStore.getState().setCompanies(companies);
      useSessionStore.getState().setUser(user);
      if (chat && chat.companyId === useCompanyStore.getState().currentCompanyId) {
        primeCompanyData(chat);
        primed = { chat: { companyId: chat.companyId, version: chat.version } };
      }
    },
    chatScreen ? 'chat' : undefined,
    // The chat data's version, when it is what the screen shows: the socket asks whether it changed.
    () => primed,
  );
}

let initializing: Promise<void> | null = null;

/** The hint cookie the server sets beside the HttpOnly refresh cookie is here. */
export function mayHaveSession(): boolean {
  return typeof document === 'undefined' || hasSessionHint(document.cookie);
}

/**
 * Restores the session from the refresh cookie, retrying transient failures, once per page. `chatScreen`:
 * the page opened is the chat, whose opening data comes with the profile (one answer, GET /api/bootstrap).
 */
export function initializeSession({ chatScreen = false }: { chatScreen?: boolean } = {}): Promise<void> {
  const session = useSessionStore.getState();
  initializing ??= (async () => {
    // No hint cookie: this browser holds no session, so the probe could only answer 401 (and log it).
    if (!mayHaveSession()) {
      session.reset();
      return;
    }
    session.setStatus('loading');
    // The preload script may have started the session check already: take its answer, not a second one.
    await preloadSettled();
    for (let attempt = 0; ; attempt += 1) {
      try {
        await http.refresh();
        await loadSession(chatScreen);
        session.setStatus('authenticated');
        return;
      } catch (error) {
        const transient = !(error instanceof ApiError) || error.isTransient;
        if (!transient) {
          http.clearSession();
          session.reset();
          return;
        }
        if (attempt >= SESSION_CHECK_RETRIES) {
          session.setStatus('error');
          return;
        }
        await wait(SESSION_CHECK_RETRY_DELAY_MS);
      }
    }
  })();
  return initializing;
}

/** Reloads the user and the company list from GET /api/me. */
export async function loadProfile(): Promise<void> {
  const me = await meApi.get();
  useCompanyStore.getState().setCompanies(me.companies);
  useSessionStore.getState().setUser(me.user);
}

/** Completes a sign-in or registration: keeps the token, then loads the profile and companies. */
export async function signIn(auth: AuthResponse): Promise<void> {
  http.setSession(auth);
  useSessionStore.getState().setUser(auth.user);
  try {
    await loadProfile();
  } catch {
    // The account is signed in even if the company list failed to load; the shell shows what it has.
  }
  useSessionStore.getState().setStatus('authenticated');
}

export function signOut(): void {
  http.clearSession();
  resetWorkspace();
  useSessionStore.getState().reset();
}

// The workspace starts with the first module that needs a session: from then on every server event,
// live or replayed over an answer, reaches the stores through applyServerEvent.
startEventSync(applyServerEvent);

// A company that refuses this session its data ("members must use SSO"), whichever call found out: its
// screens show the single sign-on notice instead.
http.onApiError((error, options) => {
  const companyId = options.headers?.['X-Company-Id'];
  if (error.code === 'SSO_REQUIRED' && companyId) useCompanyStore.getState().setSsoRequired(companyId, true);
});

// A session the server ended (the refresh was refused) signs this tab out. The token itself lives only
// in the http client.
http.onSessionChange((session, reason) => {
  if (!session && reason === 'expired' && useSessionStore.getState().status === 'authenticated') {
    resetWorkspace();
    useSessionStore.getState().reset();
  }
});
