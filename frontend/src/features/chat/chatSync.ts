import { agentsApi } from '../../api/agentsApi';
import { ApiError } from '../../api/errors';
import { chatsApi, MESSAGE_PAGE_SIZE } from '../../api/chatsApi';
import type { AgentView, ChatBootstrap, ChatPage } from '../../api/contracts';
import { useAgentsStore } from '../../stores/agentsStore';
import { lastSeq, useChatStore } from '../../stores/chatStore';
import { useCompanyStore } from '../../stores/companyStore';
import { fetchAndApply } from '../../sync/dispatch';

/** Loads of the chat screen's data; they throw, and the caller shows the toast. */
const isCurrent = (companyId: string) =>
  useCompanyStore.getState().currentCompanyId === companyId &&
  useChatStore.getState().companyId === companyId;

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
  useChatStore.getState().reset(companyId);
  useAgentsStore.getState().reset(companyId);
  useAgentsStore.getState().setAgents(data.agents);
  useChatStore.getState().setChats(false, data.activeChats, data.activeChatsCursor);
  if (data.firstChat) useChatStore.getState().applyPage(data.firstChat.chatId, data.firstChat.page, 'latest');
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

/** The Archived list's first page, when its tab is opened the first time. */
export async function loadArchivedChats(companyId: string): Promise<void> {
  await fetchAndApply(
    () => chatsApi.list(companyId, true),
    (archived) => {
      if (isCurrent(companyId)) useChatStore.getState().setChats(true, archived.chats, archived.nextCursor);
    },
    'chat',
  );
}

/**
 * The next page of a list (scrolling down the sidebar). Events that come meanwhile are applied again
 * after it, so a chat moved up or deleted while the page loaded is shown as the event says.
 */
export async function loadMoreChats(companyId: string, archived: boolean): Promise<void> {
  const chats = useChatStore.getState();
  const cursor = archived ? chats.archivedCursor : chats.activeCursor;
  const loading = archived ? chats.loadingMoreArchived : chats.loadingMoreActive;
  if (!cursor || loading) return;
  chats.setLoadingMore(archived, true);
  try {
    await fetchAndApply(
      () => chatsApi.list(companyId, archived, cursor),
      (page) => {
        const now = useChatStore.getState();
        // A reload of the list meanwhile (a resync) started again from the first page.
        if (!isCurrent(companyId) || (archived ? now.archivedCursor : now.activeCursor) !== cursor) return;
        now.appendChats(archived, page.chats, page.nextCursor);
      },
    );
  } finally {
    useChatStore.getState().setLoadingMore(archived, false);
  }
}

export function openChat(chatId: string, agentId: string): void {
  useChatStore.getState().setActiveChat(chatId);
  useAgentsStore.getState().selectAgent(agentId);
}

/** The newest page of a chat, when it opens. */
export async function loadLatestMessages(companyId: string, chatId: string): Promise<void> {
  await fetchAndApply(
    () => chatsApi.messages(companyId, chatId, { limit: MESSAGE_PAGE_SIZE }),
    (page) => {
      if (isCurrent(companyId)) useChatStore.getState().applyPage(chatId, page, 'latest');
    },
    'chat',
  );
}

/** The page before the oldest loaded message (scrolling up). */
export async function loadOlderMessages(companyId: string, chatId: string): Promise<void> {
  const chats = useChatStore.getState();
  const current = chats.messages[chatId];
  const oldest = current?.items[0];
  if (!current?.loaded || !current.hasMore || current.loadingOlder || !oldest) return;
  chats.setLoadingOlder(chatId, true);
  try {
    // Older messages only: nothing a live event could have changed since, so no replay is needed.
    const page = await chatsApi.messages(companyId, chatId, { before: oldest.seq, limit: MESSAGE_PAGE_SIZE });
    // Not when another run replaced the loaded one meanwhile (a search result, back to latest).
    const run = useChatStore.getState().messages[chatId]?.run;
    if (isCurrent(companyId) && run === current.run) useChatStore.getState().applyPage(chatId, page, 'older');
  } finally {
    useChatStore.getState().setLoadingOlder(chatId, false);
  }
}

/**
 * The page after the newest loaded message of a window (scrolling down); the last one ends the window
 * (the chat then runs up to its newest message, and live messages show again).
 */
export async function loadNewerMessages(companyId: string, chatId: string): Promise<void> {
  const chats = useChatStore.getState();
  const current = chats.messages[chatId];
  const after = lastSeq(current);
  if (!current?.hasNewer || current.loadingNewer || !after) return;
  chats.setLoadingNewer(chatId, true);
  try {
    await fetchAndApply(
      () => chatsApi.messages(companyId, chatId, { after, limit: MESSAGE_PAGE_SIZE }),
      (page) => {
        const now = useChatStore.getState().messages[chatId];
        if (isCurrent(companyId) && now?.run === current.run && now.hasNewer)
          useChatStore.getState().applyPage(chatId, page, 'newer');
      },
    );
  } finally {
    useChatStore.getState().setLoadingNewer(chatId, false);
  }
}

/** Jump to latest: the newest page in place of a window (what came meanwhile shows with it). */
export async function returnToLatest(companyId: string, chatId: string): Promise<void> {
  await fetchAndApply(
    () => chatsApi.messages(companyId, chatId, { limit: MESSAGE_PAGE_SIZE }),
    (page) => {
      if (isCurrent(companyId) && useChatStore.getState().messages[chatId]?.hasNewer)
        useChatStore.getState().applyPage(chatId, page, 'reload');
    },
    'chat',
  );
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
        if (isCurrent(companyId))
          useChatStore.getState().applyPage(openId, answer, after ? 'newer' : 'latest');
      },
    );
    if (!isCurrent(companyId) || !after || !page.hasMore) return;
  }
}
