import { chatsApi, MESSAGE_PAGE_SIZE } from '../../api/chatsApi';
import type { ChatView } from '../../api/contracts';
import { useChatStore } from '../../stores/chatStore';
import { applyMessageWindow, openChat } from '../../workspace/companyData';
import { fetchAndApply } from '../../sync/dispatch';
import { useSearchStore } from '../../stores/searchStore';

/** Messages asked for on each side of the found one: a page around it. */
export const AROUND = MESSAGE_PAGE_SIZE / 2;

/** Only the newest opening may show its answer: a slower earlier one must not replace it. */
let latestOpen = 0;

/**
 * Opens a chat at one of its messages: when the chat's loaded run holds it, at once; otherwise the page
 * around it, by cursor (up to and with it, and after it, asked for together), which replaces the
 * loaded run (window mode while newer messages remain, however old the message). Then asks the list to
 * bring the message into view and highlight it. Throws on a failed request (the caller shows the toast).
 */
export async function openAtMessage(
  companyId: string,
  target: { chatId: string; messageId: string; seq: string },
): Promise<void> {
  const ticket = ++latestOpen;
  const current = () => useChatStore.getState().companyId === companyId && ticket === latestOpen;
  const { chatId } = target;
  const focus = () =>
    useSearchStore.getState().setFocus({ chatId, messageId: target.messageId, nonce: Date.now() });

  const lists = useChatStore.getState();
  let chat: ChatView | undefined = [...lists.activeChats, ...lists.archivedChats].find(
    (c) => c.id === chatId,
  );
  const listed = !!chat;
  // A chat on a page of the list not loaded yet: listed wherever it sorts once it opens.
  chat ??= await chatsApi.get(companyId, chatId);
  if (!current()) return;
  const show = (opened: ChatView) => {
    if (!listed) useChatStore.getState().upsertChat(opened);
    openChat(opened.id, opened.agentId);
  };

  const loaded = useChatStore.getState().messages[chatId];
  if (loaded?.loaded && loaded.items.some((m) => m.id === target.messageId)) {
    show(chat);
    focus();
    return;
  }

  // The chat opens with its page: opened before, it would ask for its newest page meanwhile.
  const opened = chat;
  await fetchAndApply(
    () =>
      Promise.all([
        chatsApi.messages(companyId, chatId, { before: String(BigInt(target.seq) + 1n), limit: AROUND }),
        chatsApi.messages(companyId, chatId, { after: target.seq, limit: AROUND }),
      ]),
    ([older, newer]) => {
      if (!current()) return;
      applyMessageWindow(chatId, older, newer);
      show(opened);
      focus();
    },
  );
}
