import { agentsApi } from '../api/agentsApi';
import { setMaxFileBytes } from '../lib/attachmentLimit';
import { ApiError } from '../api/errors';
import { chatsApi } from '../api/chatsApi';
import type { AgentView, ChatBootstrap, ChatPage, MessagePage } from '../api/contracts';
import { useAgentsStore } from '../stores/agentsStore';
import { lastSeq, useChatStore, type MessagePageKind } from '../stores/chatStore';
import { useCompanyStore } from '../stores/companyStore';
import { useStreamingStore } from '../stores/streamingStore';
import { fetchAndApply } from '../sync/dispatch';

/**
 * A company's chat data, fresh on every company switch: priming it from the session's answer, loading
 * it, reloading it after a reconnect. The loads throw, and the caller shows the toast.
 */

/** An answer for `companyId` still belongs on screen: neither the company nor the chat data moved on. */
export const isCurrent = (companyId: string) =>
  useCompanyStore.getState().currentCompanyId === companyId &&
  useChatStore.getState().companyId === companyId;

/**
 * A page of a chat's messages, and the reply streaming into the chat if the page says one is: its text
 * so far (a tab opened or reloaded mid-stream), which the next deltas continue.
 */
export function applyMessagePage(chatId: string, page: MessagePage, kind: MessagePageKind): void {
  const applied = useChatStore.getState().applyPage(chatId, page, kind);
  if (applied && kind !== 'older' && page.pendingReply)
    useStreamingStore.getState().applyPage(chatId, page.streamingReply);
}

/** The run around a message (a search result), and the reply streaming into the chat, if any. */
export function applyMessageWindow(chatId: string, older: MessagePage, newer: MessagePage): void {
  useChatStore.getState().applyWindow(chatId, older, newer);
  if (newer.pendingReply) useStreamingStore.getState().applyPage(chatId, newer.streamingReply);
}

export function openChat(chatId: string, agentId: string): void {
  useChatStore.getState().setActiveChat(chatId);
  useAgentsStore.getState().selectAgent(agentId);
}

interface Lists {
  agents: AgentView[];
  /** The first page of each list. */
  active: ChatPage;
  /** Only when the Archived tab has been opened (it loads then). */
  archived: ChatPage | null;
}

/**
 * Fetches the agents and the Active list (and the Archived one once its tab was opened) and puts them
 * in the stores; null if the company changed.
 */
async function refreshLists(companyId: string): Promise<Lists | null> {
  const withArchived = useChatStore.getState().archivedLoaded;
  const lists = await fetchAndApply(
    async (): Promise<Lists> => {
      const [agents, active, archived] = await Promise.all([
        agentsApi.list(companyId),
        chatsApi.list(companyId, false),
        withArchived ? chatsApi.list(companyId, true) : null,
      ]);
      return { agents, active, archived };
    },
    ({ agents, active, archived }) => {
      if (!isCurrent(companyId)) return;
      useAgentsStore.getState().setAgents(agents);
      useChatStore.getState().setChats(false, active.chats, active.nextCursor);
      if (archived) useChatStore.getState().setChats(true, archived.chats, archived.nextCursor);
    },
    'chat',
  );
  return isCurrent(companyId) ? lists : null;
}

/** Spec: the default first active chat is the first non-archived chat; with none, the first active agent. */
function openFirstChat(agents: AgentView[]): void {
  const first = useChatStore.getState().activeChats[0];
  if (useChatStore.getState().activeChatId === null && useAgentsStore.getState().selectedAgentId === null) {
    if (first) openChat(first.id, first.agentId);
    else useAgentsStore.getState().selectAgent(agents.find((a) => a.isActive)?.id ?? null);
  }
}

/** The company whose opening data came with the session (GET /api/bootstrap) and is not yet shown. */
let primedCompanyId: string | null = null;

/**
 * Puts the chat screen's opening data, fetched with the session, in fresh stores and opens the first
 * chat: the screen then shows it without asking again (loadCompanyData uses it once).
 */
export function primeCompanyData(data: ChatBootstrap): void {
  const { companyId } = data;
  setMaxFileBytes(data.maxAttachmentBytes);
  useChatStore.getState().reset(companyId);
  useAgentsStore.getState().reset(companyId);
  useAgentsStore.getState().setAgents(data.agents);
  useChatStore.getState().setChats(false, data.activeChats, data.activeChatsCursor);
  if (data.firstChat) applyMessagePage(data.firstChat.chatId, data.firstChat.page, 'latest');
  openFirstChat(data.agents);
  primedCompanyId = companyId;
}

/**
 * Fresh stores for a company, then its agents and Active chats; opens the first active chat. What came
 * with the session for this company is used instead, once.
 */
export async function loadCompanyData(companyId: string): Promise<void> {
  const primed = primedCompanyId === companyId && useChatStore.getState().companyId === companyId;
  primedCompanyId = null;
  if (primed) return;
  useChatStore.getState().reset(companyId);
  useAgentsStore.getState().reset(companyId);
  const lists = await refreshLists(companyId);
  if (!lists) return;
  openFirstChat(lists.agents);
}

/**
 * After a reconnect the server could not recover: the lists again, and for the open chat whatever came
 * after the newest message this tab has (merged by id, so nothing shows twice).
 */
export async function resyncCompanyData(): Promise<void> {
  const companyId = useCompanyStore.getState().currentCompanyId;
  if (!companyId || !isCurrent(companyId)) return;
  const lists = await refreshLists(companyId);
  if (!lists) return;
  const chats = useChatStore.getState();
  const known = new Set([...chats.activeChats, ...chats.archivedChats].map((c) => c.id));
  const openId = chats.activeChatId;
  // The lists are first pages again: the open chat, further down, is asked for by itself.
  if (openId && !known.has(openId)) {
    const open = await chatsApi.get(companyId, openId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    });
    if (!isCurrent(companyId)) return;
    if (!open) {
      useChatStore.getState().removeChat(openId);
      return;
    }
    const now = useChatStore.getState();
    now.appendChats(open.isArchived, [open], open.isArchived ? now.archivedCursor : now.activeCursor);
  }
  const loaded = openId ? useChatStore.getState().messages[openId] : undefined;
  // A window is left as it is: paging newer (or back to latest) brings what came meanwhile.
  if (!openId || !loaded?.loaded || loaded.hasNewer) return;
  // Pages forward until the server has nothing newer.
  for (let guard = 0; guard < 100; guard += 1) {
    const after = lastSeq(useChatStore.getState().messages[openId]);
    const page = await fetchAndApply(
      () => chatsApi.messages(companyId, openId, after ? { after } : {}),
      (answer) => {
        if (isCurrent(companyId)) applyMessagePage(openId, answer, after ? 'newer' : 'latest');
      },
    );
    if (!isCurrent(companyId) || !after) return;
    if (!page.hasMore) break;
  }
  if (!isCurrent(companyId) || useChatStore.getState().messages[openId]?.hasNewer) return;
  // Messages already shown may have changed in place meanwhile (rated, edited, a reply regenerated):
  // the newest page again, over what is loaded.
  await fetchAndApply(
    () => chatsApi.messages(companyId, openId, {}),
    (answer) => {
      if (isCurrent(companyId)) applyMessagePage(openId, answer, 'refresh');
    },
  );
}
