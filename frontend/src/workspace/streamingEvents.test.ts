import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useChatStore } from '../stores/chatStore';
import { useStreamingStore } from '../stores/streamingStore';
import { chatView, messageView } from '../test/fixtures';
import { dispatch, fetchAndApply } from '../sync/dispatch';
import { enterCompany, leaveCompany } from '../test/workspace';

const delta = (text: string, offset: number) =>
  ({
    name: 'message.delta',
    payload: { companyId: 'c1', chatId: 'chat-1', messageId: 'user-1', text, offset },
  }) as const;

const streamed = () => useStreamingStore.getState().replies['chat-1']?.text;

describe('realtime dispatch: streamed replies', () => {
  beforeEach(() => {
    enterCompany();
    useChatStore.getState().setChats(false, [chatView({ id: 'chat-1', pendingReply: true })]);
  });
  afterEach(leaveCompany);

  it('deltas grow the reply; the stored reply (message.created) replaces it', () => {
    dispatch(delta('Hello', 0));
    dispatch(delta(' world', 5));
    expect(streamed()).toBe('Hello world');
    const reply = messageView({ id: 'a-1', seq: '9', senderType: 'agent', content: 'Hello world' });
    dispatch({
      name: 'message.created',
      payload: { companyId: 'c1', chatId: 'chat-1', message: reply, chat: chatView({ id: 'chat-1' }) },
    });
    expect(streamed()).toBeUndefined();
    expect(useChatStore.getState().typing['chat-1']).toBe(false);
  });

  it('a page read mid-stream gives the text so far; deltas that came meanwhile are applied once', async () => {
    dispatch(delta('so ', 0));
    await fetchAndApply(
      async () => {
        // Came while the page was being read (the page already holds it).
        dispatch(delta('far', 3));
        return {
          messages: [messageView({ id: 'user-1', seq: '8' })],
          hasMore: false,
          pendingReply: true,
          streamingReply: { messageId: 'user-1', text: 'so far' },
        };
      },
      (page) => useChatStore.getState().applyPage('chat-1', page, 'latest'),
    );
    dispatch(delta(', then more', 6));
    expect(streamed()).toBe('so far, then more');
  });

  it("an agent's tool call shows while it runs, is not part of the text, and goes with the reply", () => {
    const tool = () => useStreamingStore.getState().tools['chat-1'];
    const activity = (name: string | null) =>
      dispatch({
        name: 'agent.activity',
        payload: { companyId: 'c1', chatId: 'chat-1', messageId: 'user-1', tool: name },
      });
    activity('Calculator');
    expect(tool()).toBe('Calculator');
    dispatch(delta('4', 0));
    expect(streamed()).toBe('4');
    activity(null);
    expect(tool()).toBeUndefined();
    activity('Wikipedia');
    dispatch({ name: 'agent.typing', payload: { companyId: 'c1', chatId: 'chat-1', typing: false } });
    expect(tool()).toBeUndefined();
  });

  it('a failed or stopped-before-text reply (typing off) clears the text', () => {
    dispatch(delta('half', 0));
    dispatch({ name: 'agent.typing', payload: { companyId: 'c1', chatId: 'chat-1', typing: false } });
    expect(streamed()).toBeUndefined();
    dispatch(delta('again', 0));
    dispatch({
      name: 'agent.reply_failed',
      payload: { companyId: 'c1', chatId: 'chat-1', messageId: 'user-1', reason: 'x' },
    });
    expect(streamed()).toBeUndefined();
  });

  it('a delta for another company is ignored', () => {
    dispatch({ ...delta('x', 0), payload: { ...delta('x', 0).payload, companyId: 'c2' } });
    expect(streamed()).toBeUndefined();
  });
});
