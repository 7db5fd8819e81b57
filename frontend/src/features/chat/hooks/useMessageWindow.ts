import { useMemo } from 'react';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useChatStore } from '../../../stores/chatStore';
import { loadNewerMessages, returnToLatest } from '../chatSync';

export interface MessageWindowActions {
  /** Scrolling down a window: the page after its newest loaded message. */
  loadNewer: () => Promise<void>;
  /** Jump to latest: the chat's newest page in place of the window. */
  jumpToLatest: () => Promise<void>;
}

/** What the message list does while it shows a window of a chat's history (a search result opened it). */
export function useMessageWindow(chatId: string): MessageWindowActions {
  const toasts = useActionToasts();
  return useMemo(() => {
    const run = async (load: (companyId: string, chatId: string) => Promise<void>) => {
      const companyId = useChatStore.getState().companyId;
      if (!companyId) return;
      try {
        await load(companyId, chatId);
      } catch (error) {
        toasts.failure('Error loading messages', error);
      }
    };
    return { loadNewer: () => run(loadNewerMessages), jumpToLatest: () => run(returnToLatest) };
  }, [toasts, chatId]);
}
