import { agentsApi } from '../../api/agentsApi';
import { chatsApi, MESSAGE_PAGE_SIZE } from '../../api/chatsApi';
import type { AgentView, ChatView } from '../../api/contracts';
import { useAgentsStore } from '../agents/agentsStore';
import { lastSeq, useChatStore } from './chatStore';
import { useCompanyStore } from '../companies/companyStore';
import { fetchAndApply } from '../realtime/dispatch';

/** Loads of the chat screen's data; they throw, and the caller shows the toast. */
const isCurrent = (companyId: string) =>
  useCompanyStore.getState().currentCompanyId === companyId &&
  useChatStore.getState().companyId === companyId;

interface Lists {
  agents: AgentView[];
  active: ChatView[];
  archived: ChatView[];
}

/** Fetches the agents and both chat lists and puts them in the stores; null if the company changed. */
async function refreshLists(companyId: string): Promise<Lists | null> {
  const lists = await fetchAndApply(
    async (): Promise<Lists> => {
      const [agents, active, archived] = await Promise.all([
        agentsApi.list(companyId),
        chatsApi.list(companyId, false),
        chatsApi.list(companyId, true),
      ]);
      return { agents, active, archived };
    },
    ({ agents, active, archived }) => {
      if (!isCurrent(companyId)) return;
      useAgentsStore.getState().setAgents(agents);
      useChatStore.getState().setChats(false, active);
      useChatStore.getState().setChats(true, archived);
    },
  );
  return isCurrent(companyId) ? lists : null;
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
    else useAgentsStore.getState().selectAgent(lists.agents.find((a) => a.isActive)?.id ?? null);
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
  const known = new Set([...lists.active, ...lists.archived].map((c) => c.id));
  const openId = chats.activeChatId;
  if (openId && !known.has(openId)) {
    chats.removeChat(openId);
    return;
  }
  if (!openId || !chats.messages[openId]?.loaded) return;
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
