import { create } from 'zustand';
import type { ChatView, MessageView } from '../../api/contracts';
import type { MessagePage } from '../../api/contracts';

export interface ChatMessages {
  /** Oldest first, unique by id. */
  items: MessageView[];
  /** The newest page has been fetched (before that, items holds only what events brought). */
  loaded: boolean;
  /** Older messages exist on the server before items[0]. */
  hasMore: boolean;
  loadingOlder: boolean;
  /** How many items were prepended by scrolling up (the virtualised list keeps its position with it). */
  prepended: number;
}

interface ChatState {
  /** The company these chats belong to; events and late answers for another company are dropped. */
  companyId: string | null;
  activeChats: ChatView[];
  archivedChats: ChatView[];
  chatsLoaded: boolean;
  /** The Archived list is loaded when its tab first opens (until then it holds only what events brought). */
  archivedLoaded: boolean;
  activeChatId: string | null;
  /** chatId → the agent is answering. */
  typing: Record<string, boolean>;
  /** chatId → loaded messages; absent until the chat is opened. */
  messages: Record<string, ChatMessages>;

  reset: (companyId: string | null) => void;
  /**
   * Replaces one list (Active or Archived) with the server's, and each chat's typing flag with its
   * pendingReply. (Live events that came while the list loaded are applied again after it: realtime.)
   */
  setChats: (archived: boolean, chats: ChatView[]) => void;
  upsertChat: (chat: ChatView) => void;
  removeChat: (chatId: string) => void;
  removeChatsOfAgent: (agentId: string) => void;
  setActiveChat: (chatId: string | null) => void;
  setTyping: (chatId: string, typing: boolean) => void;
  /**
   * latest: the newest page when a chat opens; older: scrolling up; newer: resync after a reconnect.
   * A page from the newest end also says whether a reply is still coming.
   */
  applyPage: (chatId: string, page: MessagePage, kind: 'latest' | 'older' | 'newer') => void;
  addMessage: (message: MessageView) => void;
  setLoadingOlder: (chatId: string, loading: boolean) => void;
}

/** seq is a bigint as a decimal string without leading zeros: longer is larger, else compare text. */
export function compareSeq(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Merges messages by id (a later copy wins) and keeps them in seq order. */
export function mergeMessages(existing: MessageView[], incoming: MessageView[]): MessageView[] {
  if (incoming.length === 0) return existing;
  const byId = new Map(existing.map((m) => [m.id, m]));
  let changed = false;
  for (const message of incoming) {
    const current = byId.get(message.id);
    if (
      current &&
      current.content === message.content &&
      current.seq === message.seq &&
      current.feedback === message.feedback
    )
      continue;
    byId.set(message.id, message);
    changed = true;
  }
  if (!changed) return existing;
  return [...byId.values()].sort((x, y) => compareSeq(x.seq, y.seq));
}

function byNewest(a: ChatView, b: ChatView): number {
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;
}

const emptyMessages = (): ChatMessages => ({
  items: [],
  loaded: false,
  hasMore: false,
  loadingOlder: false,
  prepended: 0,
});

export const useChatStore = create<ChatState>((set, get) => ({
  companyId: null,
  activeChats: [],
  archivedChats: [],
  chatsLoaded: false,
  archivedLoaded: false,
  activeChatId: null,
  typing: {},
  messages: {},

  reset(companyId) {
    set({
      companyId,
      activeChats: [],
      archivedChats: [],
      chatsLoaded: false,
      archivedLoaded: false,
      activeChatId: null,
      typing: {},
      messages: {},
    });
  },

  setChats(archived, chats) {
    const typing = { ...get().typing };
    for (const chat of chats) typing[chat.id] = chat.pendingReply;
    const sorted = [...chats].sort(byNewest);
    set(
      archived
        ? { archivedChats: sorted, typing, archivedLoaded: true }
        : { activeChats: sorted, typing, chatsLoaded: true },
    );
  },

  upsertChat(chat) {
    const { activeChats, archivedChats } = get();
    const without = (list: ChatView[]) => list.filter((c) => c.id !== chat.id);
    set({
      activeChats: chat.isArchived ? without(activeChats) : [...without(activeChats), chat].sort(byNewest),
      archivedChats: chat.isArchived
        ? [...without(archivedChats), chat].sort(byNewest)
        : without(archivedChats),
    });
  },

  removeChat(chatId) {
    const { [chatId]: _messages, ...messages } = get().messages;
    const { [chatId]: _typing, ...typing } = get().typing;
    set({
      activeChats: get().activeChats.filter((c) => c.id !== chatId),
      archivedChats: get().archivedChats.filter((c) => c.id !== chatId),
      activeChatId: get().activeChatId === chatId ? null : get().activeChatId,
      messages,
      typing,
    });
  },

  removeChatsOfAgent(agentId) {
    const gone = [...get().activeChats, ...get().archivedChats].filter((c) => c.agentId === agentId);
    for (const chat of gone) get().removeChat(chat.id);
  },

  setActiveChat(activeChatId) {
    set({ activeChatId });
  },

  setTyping(chatId, typing) {
    set({ typing: { ...get().typing, [chatId]: typing } });
  },

  applyPage(chatId, page, kind) {
    const current = get().messages[chatId] ?? emptyMessages();
    const items = mergeMessages(current.items, page.messages);
    const next: ChatMessages = { ...current, items };
    if (kind === 'latest') {
      next.loaded = true;
      next.hasMore = page.hasMore;
    }
    if (kind === 'older') {
      next.hasMore = page.hasMore;
      const oldest = current.items[0];
      next.prepended =
        current.prepended + (oldest ? items.findIndex((m) => m.id === oldest.id) : page.messages.length);
    }
    set({
      messages: { ...get().messages, [chatId]: next },
      ...(kind === 'older' ? {} : { typing: { ...get().typing, [chatId]: page.pendingReply } }),
    });
  },

  addMessage(message) {
    // Kept even before the chat's first page arrives: that page is merged with it, so nothing is lost.
    const current = get().messages[message.chatId] ?? emptyMessages();
    const items = mergeMessages(current.items, [message]);
    if (items === current.items) return;
    set({ messages: { ...get().messages, [message.chatId]: { ...current, items } } });
  },

  setLoadingOlder(chatId, loadingOlder) {
    const current = get().messages[chatId];
    if (!current) return;
    set({ messages: { ...get().messages, [chatId]: { ...current, loadingOlder } } });
  },
}));

export function selectActiveChat(state: Pick<ChatState, 'activeChatId' | 'activeChats' | 'archivedChats'>) {
  const id = state.activeChatId;
  if (!id) return null;
  return state.activeChats.find((c) => c.id === id) ?? state.archivedChats.find((c) => c.id === id) ?? null;
}

/** The seq of the newest loaded message of a chat, the cursor for a resync. */
export function lastSeq(messages: ChatMessages | undefined): string | null {
  return messages?.items.at(-1)?.seq ?? null;
}
