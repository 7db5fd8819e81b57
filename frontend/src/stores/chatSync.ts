import { agentsApi } from '../api/agentsApi';
import { chatsApi, MESSAGE_PAGE_SIZE } from '../api/chatsApi';
import { useAgentsStore } from './agentsStore';
import { lastSeq, useChatStore } from './chatStore';
import { useCompanyStore } from './companyStore';
import type { AgentView, ChatView } from '../api/contracts';

/** Loading state shared with the screens; fetch functions throw, the caller shows the toast. */
const isCurrent = (companyId: string) =>
  useCompanyStore.getState().currentCompanyId === companyId &&
  useChatStore.getState().companyId === companyId;

let listLoadsInFlight = 0;
let heldEvents: Array<() => void> = [];

/**
 * Remembers a live event (already applied) to apply again once the lists being fetched have landed: a
 * list answer replaces the list, so it would otherwise undo an event newer than itself. Events are
 * idempotent, and replayed in the order they came.
 */
export function replayAfterListLoads(apply: () => void): void {
  if (listLoadsInFlight > 0) heldEvents.push(apply);
}

/** Fetches the agents and both chat lists and puts them in the stores; null if the company changed. */
async function refreshLists(companyId: string): Promise<{ agents: AgentView[]; chats: ChatView[] } | null> {
  listLoadsInFlight += 1;
  try {
    const requestedAt = Date.now();
    const [agents, active, archived] = await Promise.all([
      agentsApi.list(companyId),
      chatsApi.list(companyId, false),
      chatsApi.list(companyId, true),
    ]);
    if (!isCurrent(companyId)) return null;
    useAgentsStore.getState().setAgents(agents);
    useChatStore.getState().setChats(false, active, requestedAt);
    useChatStore.getState().setChats(true, archived, requestedAt);
    return { agents, chats: [...active, ...archived] };
  } finally {
    listLoadsInFlight -= 1;
    if (listLoadsInFlight === 0) {
      const held = heldEvents;
      heldEvents = [];
      for (const apply of held) apply();
    }
  }
}

/** Fresh stores for a company, then its agents and both chat lists; opens the first active chat. */
export async function loadCompanyData(companyId: string): Promise<void> {
  useChatStore.getState().reset(companyId);
  useAgentsStore.getState().reset(companyId);
  const lists = await refreshLists(companyId);
  if (!lists) return;
  // Spec: the default first active chat is the first non-archived chat.
  const first = useChatStore.getState().activeChats[0];
  if (useChatStore.getState().activeChatId === null && useAgentsStore.getState().selectedAgentId === null) {
    if (first) openChat(first.id, first.agentId);
    else useAgentsStore.getState().selectAgent(lists.agents[0]?.id ?? null);
  }
}

export function openChat(chatId: string, agentId: string): void {
  useChatStore.getState().setActiveChat(chatId);
  useAgentsStore.getState().selectAgent(agentId);
}

/** The newest page of a chat, when it opens. */
export async function loadLatestMessages(companyId: string, chatId: string): Promise<void> {
  const requestedAt = Date.now();
  const page = await chatsApi.messages(companyId, chatId, { limit: MESSAGE_PAGE_SIZE });
  if (isCurrent(companyId)) useChatStore.getState().applyPage(chatId, page, 'latest', requestedAt);
}

/** The page before the oldest loaded message (scrolling up). */
export async function loadOlderMessages(companyId: string, chatId: string): Promise<void> {
  const chats = useChatStore.getState();
  const current = chats.messages[chatId];
  const oldest = current?.items[0];
  if (!current?.loaded || !current.hasMore || current.loadingOlder || !oldest) return;
  chats.setLoadingOlder(chatId, true);
  try {
    const page = await chatsApi.messages(companyId, chatId, { before: oldest.seq, limit: MESSAGE_PAGE_SIZE });
    if (isCurrent(companyId)) useChatStore.getState().applyPage(chatId, page, 'older');
  } finally {
    useChatStore.getState().setLoadingOlder(chatId, false);
  }
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
  const known = new Set(lists.chats.map((c) => c.id));
  const openId = chats.activeChatId;
  if (openId && !known.has(openId)) {
    chats.removeChat(openId);
    return;
  }
  if (!openId || !chats.messages[openId]?.loaded) return;
  // Pages forward until the server has nothing newer.
  for (let guard = 0; guard < 100; guard += 1) {
    const after = lastSeq(useChatStore.getState().messages[openId]);
    const pageRequestedAt = Date.now();
    const page = await chatsApi.messages(companyId, openId, after ? { after } : {});
    if (!isCurrent(companyId)) return;
    useChatStore.getState().applyPage(openId, page, after ? 'newer' : 'latest', pageRequestedAt);
    if (!after || !page.hasMore) return;
  }
}
