import type { SearchResult } from '@contracts/search';
import { useMemo } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useCompanyStore } from '../../../stores/companyStore';
import { openAtMessage } from '../openAtMessage';
import { searchApi } from '../searchApi';
import { useSearchStore } from '../../../stores/searchStore';

export interface ChatSearchActions {
  /** Searches the user's chats in the current company; blank text clears the results. */
  search: (text: string) => Promise<void>;
  loadMore: () => Promise<void>;
  clear: () => void;
  /** Opens the result's chat at the message found. */
  open: (result: SearchResult) => Promise<void>;
}

/** Only the newest search may write its answer: a slow earlier one must not replace it. */
let latestSearch = 0;

export function useChatSearch(): ChatSearchActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const store = () => useSearchStore.getState();
    return {
      async search(text) {
        const query = text.trim();
        const ticket = ++latestSearch;
        if (!query) {
          store().clear();
          return;
        }
        const companyId = useCompanyStore.getState().currentCompanyId;
        if (!companyId) return;
        store().start(companyId, query);
        try {
          const page = await searchApi.search(companyId, query);
          if (ticket === latestSearch) store().setPage(page.results, page.nextCursor, false);
        } catch (error) {
          if (ticket === latestSearch) store().fail(getErrorMessage(error));
        }
      },

      async loadMore() {
        const { companyId, query, nextCursor, loadingMore } = store();
        if (!companyId || !nextCursor || loadingMore) return;
        const ticket = latestSearch;
        store().setLoadingMore(true);
        try {
          const page = await searchApi.search(companyId, query, nextCursor);
          if (ticket === latestSearch) store().setPage(page.results, page.nextCursor, true);
        } catch (error) {
          if (ticket === latestSearch) store().fail(getErrorMessage(error));
        }
      },

      clear() {
        latestSearch += 1;
        store().clear();
      },

      async open(result) {
        const companyId = toasts.companyOrToast();
        if (!companyId) return;
        try {
          await openAtMessage(companyId, result);
        } catch (error) {
          toasts.failure('Error loading messages', error);
        }
      },
    };
  }, [toasts]);
}
