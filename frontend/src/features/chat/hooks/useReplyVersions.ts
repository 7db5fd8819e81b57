import { useCallback, useMemo } from 'react';
import { chatsApi } from '../../../api/chatsApi';
import type { MessageVersionView, ReplyRequested } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useChatStore } from '../../../stores/chatStore';
import { useCompanyStore } from '../../../stores/companyStore';
import { fetchAndApply } from '../../../sync/dispatch';

export interface ReplyVersionActions {
  /** Asks the agent again for the latest reply (`messageId`: that reply, or the message it answers). */
  regenerate: (messageId: string) => Promise<boolean>;
  /** New text for the latest message; its reply is asked for again. */
  edit: (messageId: string, content: string) => Promise<boolean>;
  /** Every version of a message, oldest first (null after a failure's toast). */
  versions: (messageId: string) => Promise<MessageVersionView[] | null>;
}

/**
 * Regenerate, edit and the version history. The answer shows at once (the replaced reply goes, the
 * typing indicator comes); the user's other tabs get the same as `message.versioned`.
 */
export function useReplyVersions(): ReplyVersionActions {
  const { companyOrToast, failure } = useActionToasts();
  const apply = useCallback((companyId: string, result: ReplyRequested) => {
    if (useCompanyStore.getState().currentCompanyId !== companyId) return;
    useChatStore.getState().applyVersioned(result.chat, result.message, result.replacedReplyId);
  }, []);
  const regenerate = useCallback(
    async (messageId: string) => {
      const companyId = companyOrToast();
      if (!companyId) return false;
      try {
        await fetchAndApply(
          () => chatsApi.regenerate(companyId, messageId),
          (result) => apply(companyId, result),
        );
        return true;
      } catch (error) {
        failure('Error regenerating the reply', error);
        return false;
      }
    },
    [apply, companyOrToast, failure],
  );
  const edit = useCallback(
    async (messageId: string, content: string) => {
      const companyId = companyOrToast();
      if (!companyId) return false;
      try {
        await fetchAndApply(
          () => chatsApi.editMessage(companyId, messageId, content),
          (result) => apply(companyId, result),
        );
        return true;
      } catch (error) {
        failure('Error editing the message', error);
        return false;
      }
    },
    [apply, companyOrToast, failure],
  );
  const versions = useCallback(
    async (messageId: string) => {
      const companyId = companyOrToast();
      if (!companyId) return null;
      try {
        return (await chatsApi.versions(companyId, messageId)).versions;
      } catch (error) {
        failure('Error loading the versions', error);
        return null;
      }
    },
    [companyOrToast, failure],
  );
  return useMemo(() => ({ regenerate, edit, versions }), [regenerate, edit, versions]);
}
