import { useCallback } from 'react';
import { chatsApi } from '../../../api/chatsApi';
import type { MessageFeedback, MessageView } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useChatStore } from '../../../stores/chatStore';

/**
 * Rates an agent's reply (null takes the rating back; a reason goes with a dislike). The stored reply
 * comes back and replaces the shown one; the user's other tabs get it as `message.updated`.
 */
export function useRateReply(): (
  message: MessageView,
  score: MessageFeedback | null,
  reason?: string,
) => Promise<boolean> {
  const { companyOrToast, failure } = useActionToasts();
  return useCallback(
    async (message, score, reason) => {
      const companyId = companyOrToast();
      if (!companyId) return false;
      try {
        const rated = await chatsApi.rateReply(companyId, message.id, { score, reason: reason || null });
        useChatStore.getState().addMessage(rated);
        return true;
      } catch (error) {
        failure('Error saving feedback', error);
        return false;
      }
    },
    [companyOrToast, failure],
  );
}
