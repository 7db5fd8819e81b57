import { chatsApi, MESSAGE_PAGE_SIZE } from '../../api/chatsApi';
import type { ChatView } from '../../api/contracts';
import { compareSeq, useChatStore } from '../chat/chatStore';
import { openChat } from '../chat/chatSync';
import { fetchAndApply } from '../realtime/dispatch';
import { useSearchStore } from './searchStore';

/** Pages of older history fetched per request while paging back to a found message. */
const HISTORY_PAGE = 200;
/** At most this many pages back (10,000 messages): the chat then opens at the oldest page reached. */
const MAX_PAGES_BACK = 50;

const stillCurrent = (companyId: string) => useChatStore.getState().companyId === companyId;

/**
 * Opens a chat at one of its messages: the chat (fetched when the loaded lists do not hold it), its
 * newest page, then older pages by cursor until the message is loaded, since the message list holds one
 * unbroken run of history up to the newest message. Then asks the list to bring the message into view
 * and highlight it. Throws on a failed request (the caller shows the toast).
 */
export async function openAtMessage(
  companyId: string,
  target: { chatId: string; messageId: string; seq: string },
): Promise<void> {
  const { chatId } = target;
  const lists = useChatStore.getState();
  let chat: ChatView | undefined = [...lists.activeChats, ...lists.archivedChats].find(
    (c) => c.id === chatId,
  );
  if (!chat) {
    // A chat on a page of the list not loaded yet: opened first, it is listed wherever it sorts.
    chat = await chatsApi.get(companyId, chatId);
    if (!stillCurrent(companyId)) return;
    openChat(chat.id, chat.agentId);
    useChatStore.getState().upsertChat(chat);
  } else {
    openChat(chat.id, chat.agentId);
  }

  if (!useChatStore.getState().messages[chatId]?.loaded) {
    await fetchAndApply(
      () => chatsApi.messages(companyId, chatId, { limit: MESSAGE_PAGE_SIZE }),
      (page) => {
        if (stillCurrent(companyId)) useChatStore.getState().applyPage(chatId, page, 'latest');
      },
      'chat',
    );
  }
  for (let pages = 0; pages < MAX_PAGES_BACK; pages += 1) {
    if (!stillCurrent(companyId)) return;
    const loaded = useChatStore.getState().messages[chatId];
    const oldest = loaded?.items[0];
    if (!loaded?.hasMore || !oldest || compareSeq(oldest.seq, target.seq) <= 0) break;
    const page = await chatsApi.messages(companyId, chatId, { before: oldest.seq, limit: HISTORY_PAGE });
    if (stillCurrent(companyId)) useChatStore.getState().applyPage(chatId, page, 'older');
  }
  if (!stillCurrent(companyId)) return;
  useSearchStore.getState().setFocus({ chatId, messageId: target.messageId, nonce: Date.now() });
}
