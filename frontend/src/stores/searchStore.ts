import type { SearchResult } from '@contracts/search';
import { create } from 'zustand';

/** A message to bring into view and highlight once its chat shows it (a search result was opened). */
export interface MessageFocus {
  chatId: string;
  messageId: string;
  /** A new value for every request, so that opening the same result twice scrolls again. */
  nonce: number;
}

interface SearchState {
  /** The company the results belong to: they are not shown in another. */
  companyId: string | null;
  /** The text searched for (trimmed); '' when no search is shown. */
  query: string;
  results: SearchResult[];
  nextCursor: string | null;
  status: 'idle' | 'loading' | 'done' | 'error';
  loadingMore: boolean;
  error: string | null;
  focus: MessageFocus | null;

  start: (companyId: string, query: string) => void;
  setPage: (results: SearchResult[], nextCursor: string | null, append: boolean) => void;
  setLoadingMore: (loading: boolean) => void;
  fail: (message: string) => void;
  clear: () => void;
  setFocus: (focus: MessageFocus | null) => void;
}

export const useSearchStore = create<SearchState>((set, get) => ({
  companyId: null,
  query: '',
  results: [],
  nextCursor: null,
  status: 'idle',
  loadingMore: false,
  error: null,
  focus: null,

  start(companyId, query) {
    set({
      companyId,
      query,
      results: [],
      nextCursor: null,
      status: 'loading',
      loadingMore: false,
      error: null,
    });
  },
  setPage(results, nextCursor, append) {
    set({
      results: append ? [...get().results, ...results] : results,
      nextCursor,
      status: 'done',
      loadingMore: false,
      error: null,
    });
  },
  setLoadingMore(loadingMore) {
    set({ loadingMore });
  },
  fail(error) {
    set({ status: 'error', error, loadingMore: false });
  },
  clear() {
    set({ query: '', results: [], nextCursor: null, status: 'idle', loadingMore: false, error: null });
  },
  setFocus(focus) {
    set({ focus });
  },
}));
