import { useCallback } from 'react';
import { chatsApi } from '../../../api/chatsApi';
import { useActionToasts } from '../../../hooks/useActionToasts';

/**
 * Stop: ends the chat's pending reply. The server's events then clear the typing indicator and store
 * what came (marked "Stopped") in every tab of the user.
 */
export function useStopReply(): (chatId: string) => Promise<void> {
  const { companyOrToast, failure } = useActionToasts();
  return useCallback(
    async (chatId: string) => {
      const companyId = companyOrToast();
      if (!companyId) return;
      try {
        await chatsApi.stopReply(companyId, chatId);
      } catch (error) {
        failure('Could not stop the reply', error);
      }
    },
    [companyOrToast, failure],
  );
}
