import { useMemo } from 'react';
import { chatsApi } from '../../../api/chatsApi';
import type { UpdateChatRequest } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useAgentsStore } from '../../../stores/agentsStore';
import { selectActiveChat, useChatStore } from '../../../stores/chatStore';
import { loadArchivedChats, loadMoreChats, loadOlderMessages, openChat, returnToLatest } from '../chatSync';
import { fetchAndApply } from '../../../sync/dispatch';

export interface ChatActions {
  /** Resolves true once the message is stored (the input clears), false when it was not sent. */
  sendMessage: (text: string, attachmentIds?: string[]) => Promise<boolean>;
  newChat: () => Promise<void>;
  archiveChat: (chatId: string) => Promise<void>;
  restoreChat: (chatId: string) => Promise<void>;
  deleteChat: (chatId: string) => Promise<void>;
  renameChat: (chatId: string, title: string) => Promise<boolean>;
  /** Scrolling up: the page before the oldest loaded message. */
  loadOlder: (chatId: string) => Promise<void>;
  /** The Archived tab opened: its list, the first time. */
  loadArchived: () => Promise<void>;
  /** Scrolling down a list of chats: its next page. */
  loadMoreChats: (archived: boolean) => Promise<void>;
}

/**
 * What the chat screen does, with the spec's toasts. State changes arrive by answer and by event alike;
 * answers go through `fetchAndApply`, so an event that came meanwhile is not undone by them.
 */
export function useChatActions(): ChatActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { companyOrToast, failure: fail } = toasts;
    const stillCurrent = (companyId: string) => useChatStore.getState().companyId === companyId;

    /** Saves changes to a chat and shows the saved chat; false when it failed (the toast says why). */
    const saveChat = async (chatId: string, changes: UpdateChatRequest, done: string, failed: string) => {
      const companyId = companyOrToast();
      if (!companyId) return false;
      try {
        await fetchAndApply(
          () => chatsApi.update(companyId, chatId, changes),
          (chat) => {
            if (!stillCurrent(companyId)) return;
            const store = useChatStore.getState();
            store.upsertChat(chat);
            // Spec: archiving clears the active chat if it was that one.
            if (changes.isArchived && store.activeChatId === chatId) store.setActiveChat(null);
          },
        );
        toasts.success(done);
        return true;
      } catch (error) {
        fail(failed, error);
        return false;
      }
    };

    return {
      async sendMessage(text, attachmentIds = []) {
        const content = text.trim();
        if (!content && !attachmentIds.length) return false;
        const companyId = companyOrToast();
        if (!companyId) return false;
        const chat = selectActiveChat(useChatStore.getState());
        try {
          if (chat) {
            // From a window of old messages, back to the latest first: the message shows in its place.
            if (useChatStore.getState().messages[chat.id]?.hasNewer) await returnToLatest(companyId, chat.id);
            await fetchAndApply(
              () => chatsApi.send(companyId, chat.id, content, attachmentIds),
              (message) => {
                if (!stillCurrent(companyId)) return;
                useChatStore.getState().addMessage(message);
                // Its reply is due (events that came meanwhile are applied again after this).
                useChatStore.getState().setTyping(message.chatId, true);
              },
            );
            return true;
          }
          const agentId = useAgentsStore.getState().selectedAgentId;
          if (!agentId) {
            toasts.refusal('No agent selected');
            return false;
          }
          // The first message with no active chat creates 'Chat with {agent}'.
          await fetchAndApply(
            () => chatsApi.sendFirst(companyId, agentId, content, attachmentIds),
            (result) => {
              if (!stillCurrent(companyId)) return;
              const store = useChatStore.getState();
              store.upsertChat(result.chat);
              store.addMessage(result.message);
              openChat(result.chat.id, result.chat.agentId);
            },
          );
          return true;
        } catch (error) {
          fail('Error sending message', error);
          return false;
        }
      },

      async newChat() {
        const companyId = companyOrToast();
        if (!companyId) return;
        const agentId = useAgentsStore.getState().selectedAgentId;
        if (!agentId) {
          toasts.refusal('No agent selected');
          return;
        }
        // Spec: New Chat clears the current chat, then creates one for the current agent.
        useChatStore.getState().setActiveChat(null);
        try {
          await fetchAndApply(
            () => chatsApi.create(companyId, agentId),
            (chat) => {
              if (!stillCurrent(companyId)) return;
              const store = useChatStore.getState();
              store.upsertChat(chat);
              // A chat made this instant has no messages: no need to ask for them.
              if (!store.messages[chat.id])
                store.applyPage(chat.id, { messages: [], hasMore: false, pendingReply: false }, 'latest');
              openChat(chat.id, chat.agentId);
            },
          );
          toasts.success('New chat created');
        } catch (error) {
          fail('Error creating chat', error);
        }
      },

      archiveChat: async (chatId) => {
        await saveChat(chatId, { isArchived: true }, 'Chat archived', 'Error archiving chat');
      },

      restoreChat: async (chatId) => {
        await saveChat(chatId, { isArchived: false }, 'Chat restored', 'Error restoring chat');
      },

      async deleteChat(chatId) {
        const companyId = companyOrToast();
        if (!companyId) return;
        try {
          await chatsApi.remove(companyId, chatId);
          if (stillCurrent(companyId)) useChatStore.getState().removeChat(chatId);
          toasts.success('Chat deleted');
        } catch (error) {
          fail('Error deleting chat', error);
        }
      },

      renameChat: (chatId, title) =>
        title.trim()
          ? saveChat(chatId, { title: title.trim() }, 'Chat renamed', 'Error renaming chat')
          : Promise.resolve(false),

      async loadArchived() {
        const { companyId, archivedLoaded } = useChatStore.getState();
        if (!companyId || archivedLoaded) return;
        try {
          await loadArchivedChats(companyId);
        } catch (error) {
          fail('Error loading chats', error);
        }
      },

      async loadMoreChats(archived) {
        const companyId = useChatStore.getState().companyId;
        if (!companyId) return;
        try {
          await loadMoreChats(companyId, archived);
        } catch (error) {
          fail('Error loading chats', error);
        }
      },

      async loadOlder(chatId) {
        const companyId = useChatStore.getState().companyId;
        if (!companyId) return;
        try {
          await loadOlderMessages(companyId, chatId);
        } catch (error) {
          fail('Error loading messages', error);
        }
      },
    };
  }, [toasts]);
}
