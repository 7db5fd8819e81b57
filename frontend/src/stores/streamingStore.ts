import { create } from 'zustand';
import type { ClientEventMap, StreamingReply } from '../api/contracts';
import { applyStreamDelta, mergeStreamingReply } from './streamingReply';

interface StreamingState {
  /** chatId → the reply being streamed into it, as far as it has come. */
  replies: Record<string, StreamingReply>;
  /** chatId → the tool the agent is using while it answers (`agent.activity`); none when absent. */
  tools: Record<string, string>;
  setTool: (activity: ClientEventMap['agent.activity']) => void;
  applyDelta: (delta: ClientEventMap['message.delta']) => void;
  /** A page of the chat's newest messages came (its `streamingReply`, if any). */
  applyPage: (chatId: string, streamingReply: StreamingReply | null | undefined) => void;
  /** The reply is stored, failed or stopped: the message list shows the rest. */
  clear: (chatId: string) => void;
  reset: () => void;
}

export const useStreamingStore = create<StreamingState>((set, get) => ({
  replies: {},
  tools: {},

  setTool({ chatId, tool }) {
    const { [chatId]: _was, ...tools } = get().tools;
    set({ tools: tool === null ? tools : { ...tools, [chatId]: tool } });
  },

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
    if (!(chatId in get().replies) && !(chatId in get().tools)) return;
    const { [chatId]: _gone, ...replies } = get().replies;
    const { [chatId]: _tool, ...tools } = get().tools;
    set({ replies, tools });
  },

  reset() {
    set({ replies: {}, tools: {} });
  },
}));
