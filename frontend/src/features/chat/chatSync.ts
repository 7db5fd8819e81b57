import { chatsApi, MESSAGE_PAGE_SIZE } from '../../api/chatsApi';
import { lastSeq, useChatStore } from '../../stores/chatStore';
import { fetchAndApply } from '../../sync/dispatch';
import { applyMessagePage, isCurrent } from '../../workspace/companyData';

/**
 * The chat screen's paging: more chats, older and newer messages, back to the latest. Loading and
 * priming a company's data is the workspace's (workspace/companyData.ts). They throw, and the caller
 * shows the toast.
 */

export { openChat } from '../../workspace/companyData';

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

/** The newest page of a chat, when it opens. */
export async function loadLatestMessages(companyId: string, chatId: string): Promise<void> {
  await fetchAndApply(
    () => chatsApi.messages(companyId, chatId, { limit: MESSAGE_PAGE_SIZE }),
    (page) => {
      if (isCurrent(companyId)) applyMessagePage(chatId, page, 'latest');
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
    if (isCurrent(companyId) && run === current.run) applyMessagePage(chatId, page, 'older');
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
          applyMessagePage(chatId, page, 'newer');
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
        applyMessagePage(chatId, page, 'reload');
    },
    'chat',
  );
}
