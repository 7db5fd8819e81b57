import { create } from 'zustand';
import type { ClientEventMap, StreamingReply } from '../api/contracts';
import { applyStreamDelta, mergeStreamingReply } from './streamingReply';

interface StreamingState {
  /** chatId → the reply being streamed into it, as far as it has come. */
  replies: Record<string, StreamingReply>;
  applyDelta: (delta: ClientEventMap['message.delta']) => void;
  /** A page of the chat's newest messages came (its `streamingReply`, if any). */
  applyPage: (chatId: string, streamingReply: StreamingReply | null | undefined) => void;
  /** The reply is stored, failed or stopped: the message list shows the rest. */
  clear: (chatId: string) => void;
  reset: () => void;
}

export const useStreamingStore = create<StreamingState>((set, get) => ({
  replies: {},

  applyDelta(delta) {
    const current = get().replies[delta.chatId] ?? null;
    const next = applyStreamDelta(current, delta);
    if (next && next !== current) set({ replies: { ...get().replies, [delta.chatId]: next } });
  },

  applyPage(chatId, streamingReply) {
    const current = get().replies[chatId] ?? null;
    const next = mergeStreamingReply(current, streamingReply ?? null);
    if (next && next !== current) set({ replies: { ...get().replies, [chatId]: next } });
  },

  clear(chatId) {
    if (!(chatId in get().replies)) return;
    const { [chatId]: _gone, ...replies } = get().replies;
    set({ replies });
  },

  reset() {
    set({ replies: {} });
  },
}));
