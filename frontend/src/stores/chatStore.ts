import { create } from 'zustand';
import type { ChatView, MessageView } from '../api/contracts';
import type { MessagePage } from '../api/contracts';

export interface ChatMessages {
  /** Oldest first, unique by id. */
  items: MessageView[];
  /** The newest page has been fetched (before that, items holds only what events brought). */
  loaded: boolean;
  /** Older messages exist on the server before items[0]. */
  hasMore: boolean;
  /**
   * Window mode (a search result opened the chat at an old message): items are an unbroken run of
   * history that stops before the newest message; newer ones exist after items.at(-1). Live messages
   * past the run are not added (that would leave a gap): paging newer, or back to the latest page,
   * brings them. False in the normal mode, where items run up to the newest message.
   */
  hasNewer: boolean;
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** How many items were prepended by scrolling up (the virtualised list keeps its position with it). */
  prepended: number;
  /** Counts the times items were replaced by another run (a window opened, back to latest): the list restarts. */
  run: number;
}

export type MessagePageKind = 'latest' | 'older' | 'newer' | 'reload' | 'refresh';

interface ChatState {
  /** The company these chats belong to; events and late answers for another company are dropped. */
  companyId: string | null;
  activeChats: ChatView[];
  archivedChats: ChatView[];
  /**
   * Each list is loaded a page at a time (newest first): the cursor of its next page, null once the
   * last page is in (or before the first one came).
   */
  activeCursor: string | null;
  archivedCursor: string | null;
  /** A next page of that list is being fetched. */
  loadingMoreActive: boolean;
  loadingMoreArchived: boolean;
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
  setChats: (archived: boolean, chats: ChatView[], nextCursor?: string | null) => void;
  /** Adds the next page of a list (merged by id: a copy an event brought meanwhile, if newer, stays). */
  appendChats: (archived: boolean, chats: ChatView[], nextCursor: string | null) => void;
  setLoadingMore: (archived: boolean, loading: boolean) => void;
  /**
   * Puts a chat in its list. `fromEvent`: a live event, which leaves a chat that is not loaded and
   * sorts below the loaded part of a list with more pages to that page (an answer or a user's action
   * always shows its chat).
   */
  upsertChat: (chat: ChatView, fromEvent?: boolean) => void;
  removeChat: (chatId: string) => void;
  removeChatsOfAgent: (agentId: string) => void;
  setActiveChat: (chatId: string | null) => void;
  setTyping: (chatId: string, typing: boolean) => void;
  /**
   * latest: the newest page when a chat opens (ignored by a window opened since it was asked for);
   * older: scrolling up; newer: the page after the newest loaded message (resync after a reconnect,
   * or scrolling down a window: a last page, hasMore false, ends the window); reload: the newest page
   * in place of what is loaded (back from a window to the latest messages).
   * A page from the newest end also says whether a reply is still coming. False when the page was
   * left out (a newest page asked for before a window opened).
   */
  applyPage: (chatId: string, page: MessagePage, kind: MessagePageKind) => boolean;
  /**
   * Replaces what is loaded with the run around a message: `older` (a `before` page, up to and with
   * the message) then `newer` (an `after` page). While `newer.hasMore`, the chat is in window mode.
   */
  applyWindow: (chatId: string, older: MessagePage, newer: MessagePage) => void;
  addMessage: (message: MessageView) => void;
  /** Drops a message that is no longer shown (a reply replaced by a regenerate, now one of its versions). */
  removeMessage: (chatId: string, messageId: string) => void;
  /**
   * A reply is asked for again (a regenerate or an edit: `message.versioned`): the user message as it
   * now is, the reply it replaces dropped, the chat waiting like after a send.
   */
  applyVersioned: (chat: ChatView, message: MessageView, replacedReplyId: string | null) => void;
  setLoadingOlder: (chatId: string, loading: boolean) => void;
  setLoadingNewer: (chatId: string, loading: boolean) => void;
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
      current.feedback === message.feedback &&
      current.feedbackReason === message.feedbackReason &&
      (current.version ?? 1) === (message.version ?? 1)
    )
      continue;
    byId.set(message.id, message);
    changed = true;
  }
  if (!changed) return existing;
  return [...byId.values()].sort((x, y) => compareSeq(x.seq, y.seq));
}

/**
 * The newest page again over what is loaded (a catch-up): its messages as the server has them now
 * (edited, rated), and those loaded within its span that it no longer holds (replies replaced by a
 * regenerate) dropped; what is older than the page stays.
 */
export function refreshed(existing: MessageView[], page: MessageView[]): MessageView[] {
  const first = page[0];
  if (!first) return existing;
  const onPage = new Set(page.map((m) => m.id));
  const kept = existing.filter((m) => compareSeq(m.seq, first.seq) < 0 || onPage.has(m.id));
  const merged = mergeMessages(kept, page);
  return kept.length === existing.length && merged === kept ? existing : merged;
}

/** The server's order: updatedAt, then id, both descending. */
function byNewest(a: ChatView, b: ChatView): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * A list with `chat` put in (or moved to) its place. When more pages remain and the chat sorts after the
 * last loaded one, it is left out: it belongs to a page not loaded yet, which brings it (an event about
 * a chat far down the list, renamed in another tab, must not show it out of place).
 */
function placeChat(list: ChatView[], chat: ChatView, more: boolean): ChatView[] {
  const without = list.filter((c) => c.id !== chat.id);
  const last = without.at(-1);
  if (more && last && byNewest(chat, last) > 0 && without.length === list.length) return without;
  return [...without, chat].sort(byNewest);
}

/** A list and its next page, one copy per chat: the newer of two copies stays (ties: the page's). */
function mergePage(list: ChatView[], page: ChatView[]): ChatView[] {
  const byId = new Map(list.map((c) => [c.id, c]));
  for (const chat of page) {
    const current = byId.get(chat.id);
    if (!current || current.updatedAt <= chat.updatedAt) byId.set(chat.id, chat);
  }
  return [...byId.values()].sort(byNewest);
}

const emptyMessages = (): ChatMessages => ({
  items: [],
  loaded: false,
  hasMore: false,
  hasNewer: false,
  loadingOlder: false,
  loadingNewer: false,
  prepended: 0,
  run: 0,
});

/** A run of messages in place of what `current` holds: the list starts again from it. */
const replaced = (current: ChatMessages, items: MessageView[], hasMore: boolean, hasNewer: boolean) => ({
  ...current,
  items,
  loaded: true,
  hasMore,
  hasNewer,
  loadingOlder: false,
  loadingNewer: false,
  prepended: 0,
  run: current.run + 1,
});

/** A message inside a window's run (or already in it): one past it would leave a gap. */
function inWindow(current: ChatMessages, message: MessageView): boolean {
  const first = current.items[0];
  const last = current.items.at(-1);
  if (!first || !last) return false;
  if (current.items.some((m) => m.id === message.id)) return true;
  return compareSeq(message.seq, first.seq) >= 0 && compareSeq(message.seq, last.seq) <= 0;
}

/** A company's chat state before anything is loaded: the store's start, and what `reset` returns to. */
function emptyChats(companyId: string | null) {
  return {
    companyId,
    activeChats: [],
    archivedChats: [],
    activeCursor: null,
    archivedCursor: null,
    loadingMoreActive: false,
    loadingMoreArchived: false,
    chatsLoaded: false,
    archivedLoaded: false,
    activeChatId: null,
    typing: {},
    messages: {},
  };
}

export const useChatStore = create<ChatState>((set, get) => ({
  ...emptyChats(null),

  reset(companyId) {
    set(emptyChats(companyId));
  },

  setChats(archived, chats, nextCursor = null) {
    const typing = { ...get().typing };
    for (const chat of chats) typing[chat.id] = chat.pendingReply;
    const sorted = [...chats].sort(byNewest);
    set(
      archived
        ? { archivedChats: sorted, archivedCursor: nextCursor, typing, archivedLoaded: true }
        : { activeChats: sorted, activeCursor: nextCursor, typing, chatsLoaded: true },
    );
  },

  appendChats(archived, chats, nextCursor) {
    const typing = { ...get().typing };
    const list = archived ? get().archivedChats : get().activeChats;
    const known = new Set(list.map((c) => c.id));
    for (const chat of chats) if (!known.has(chat.id)) typing[chat.id] = chat.pendingReply;
    const merged = mergePage(list, chats);
    set(
      archived
        ? { archivedChats: merged, archivedCursor: nextCursor, typing }
        : { activeChats: merged, activeCursor: nextCursor, typing },
    );
  },

  setLoadingMore(archived, loading) {
    set(archived ? { loadingMoreArchived: loading } : { loadingMoreActive: loading });
  },

  upsertChat(chat, fromEvent = false) {
    const { activeChats, archivedChats, activeCursor, archivedCursor, activeChatId } = get();
    const without = (list: ChatView[]) => list.filter((c) => c.id !== chat.id);
    // Shown wherever it sorts: a chat an answer or action brought, and the open chat (the screen reads
    // it from the lists).
    const open = !fromEvent || chat.id === activeChatId;
    set({
      activeChats: chat.isArchived
        ? without(activeChats)
        : placeChat(activeChats, chat, activeCursor !== null && !open),
      archivedChats: chat.isArchived
        ? placeChat(archivedChats, chat, archivedCursor !== null && !open)
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
    // A newest page asked for before a window opened (as the chat opened): the window stands.
    if (kind === 'latest' && current.hasNewer) return false;
    const items =
      kind === 'reload'
        ? page.messages
        : kind === 'refresh'
          ? refreshed(current.items, page.messages)
          : mergeMessages(current.items, page.messages);
    const next: ChatMessages =
      kind === 'reload' ? replaced(current, items, page.hasMore, false) : { ...current, items };
    if (kind === 'newer' && current.hasNewer) next.hasNewer = page.hasMore;
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
    return true;
  },

  applyWindow(chatId, older, newer) {
    const current = get().messages[chatId] ?? emptyMessages();
    const items = mergeMessages(older.messages, newer.messages);
    set({
      messages: { ...get().messages, [chatId]: replaced(current, items, older.hasMore, newer.hasMore) },
      typing: { ...get().typing, [chatId]: newer.pendingReply },
    });
  },

  addMessage(message) {
    // Kept even before the chat's first page arrives: that page is merged with it, so nothing is lost.
    const current = get().messages[message.chatId] ?? emptyMessages();
    // A window holds no message past its run: the server has it, paging newer brings it.
    if (current.hasNewer && !inWindow(current, message)) return;
    const items = mergeMessages(current.items, [message]);
    if (items === current.items) return;
    set({ messages: { ...get().messages, [message.chatId]: { ...current, items } } });
  },

  removeMessage(chatId, messageId) {
    const current = get().messages[chatId];
    if (!current?.items.some((m) => m.id === messageId)) return;
    const items = current.items.filter((m) => m.id !== messageId);
    set({ messages: { ...get().messages, [chatId]: { ...current, items } } });
  },

  applyVersioned(chat, message, replacedReplyId) {
    get().upsertChat(chat, true);
    if (replacedReplyId) get().removeMessage(chat.id, replacedReplyId);
    get().addMessage(message);
    get().setTyping(chat.id, chat.pendingReply);
  },

  setLoadingOlder(chatId, loadingOlder) {
    const current = get().messages[chatId];
    if (!current) return;
    set({ messages: { ...get().messages, [chatId]: { ...current, loadingOlder } } });
  },

  setLoadingNewer(chatId, loadingNewer) {
    const current = get().messages[chatId];
    if (!current) return;
    set({ messages: { ...get().messages, [chatId]: { ...current, loadingNewer } } });
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
