import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatView, MessagePage } from '../api/contracts';
import { useAgentsStore } from '../stores/agentsStore';
import { useChatStore } from '../stores/chatStore';
import { useCompanyStore } from '../stores/companyStore';
import { agentView, chatView, messageView } from '../test/fixtures';
import { dispatch, fetchAndApply } from '../sync/dispatch';

function openChatWithPage(chatId = 'chat-1') {
  const store = useChatStore.getState();
  store.setChats(false, [chatView({ id: chatId })]);
  store.applyPage(chatId, { messages: [], hasMore: false, pendingReply: false }, 'latest');
  store.setActiveChat(chatId);
}

describe('realtime dispatch: live events', () => {
  beforeEach(() => {
    useCompanyStore.getState().setCompanies([
      { id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
      { id: 'c2', name: 'Second', role: 'user', createdAt: '2024-01-01T00:00:00Z' },
    ]);
    useCompanyStore.getState().setCurrentCompany('c1');
    useChatStore.getState().reset('c1');
    useAgentsStore.getState().reset('c1');
  });
  afterEach(() => useCompanyStore.getState().reset());

  it('shows a message that arrives twice (answer and event, or two events) once', () => {
    openChatWithPage();
    const message = messageView({ id: 'm-1', seq: '7' });
    const chat = chatView({
      lastMessage: 'Hello',
      updatedAt: '2024-05-01T10:01:00.000Z',
      pendingReply: true,
    });
    useChatStore.getState().addMessage(message); // the sending tab's own answer
    dispatch({ name: 'message.created', payload: { companyId: 'c1', chatId: 'chat-1', message, chat } });
    dispatch({ name: 'message.created', payload: { companyId: 'c1', chatId: 'chat-1', message, chat } });

    const state = useChatStore.getState();
    expect(state.messages['chat-1']?.items).toHaveLength(1);
    expect(state.activeChats).toHaveLength(1);
    expect(state.activeChats[0]?.lastMessage).toBe('Hello');
  });

  it("shows a voice turn's rating made in another tab", () => {
    openChatWithPage();
    const turn = messageView({
      id: 'v-1',
      seq: '3',
      senderType: 'agent',
      isVoiceMessage: true,
      feedback: null,
    });
    useChatStore.getState().addMessage(turn);
    dispatch({
      name: 'message.updated',
      payload: { companyId: 'c1', chatId: 'chat-1', message: { ...turn, feedback: 'like' } },
    });
    const items = useChatStore.getState().messages['chat-1']?.items ?? [];
    expect(items).toHaveLength(1);
    expect(items[0]?.feedback).toBe('like');
  });

  it('keeps messages in seq order whatever order they arrive in', () => {
    openChatWithPage();
    const chat = chatView();
    for (const [id, seq] of [
      ['b', '10'],
      ['a', '9'],
      ['c', '100'],
    ] as const) {
      dispatch({
        name: 'message.created',
        payload: {
          companyId: 'c1',
          chatId: 'chat-1',
          message: messageView({ id, seq }),
          chat,
        },
      });
    }
    expect(useChatStore.getState().messages['chat-1']?.items.map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });

  it('ignores events of another company than the one on screen', () => {
    openChatWithPage();
    const applied = dispatch({
      name: 'message.created',
      payload: {
        companyId: 'c2',
        chatId: 'chat-1',
        message: messageView({ id: 'other' }),
        chat: chatView({ id: 'chat-1', companyId: 'c2', title: 'Elsewhere' }),
      },
    });
    dispatch({
      name: 'chat.created',
      payload: {
        companyId: 'c2',
        chat: chatView({ id: 'chat-2', companyId: 'c2' }),
      },
    });
    dispatch({ name: 'agent.typing', payload: { companyId: 'c2', chatId: 'chat-1', typing: true } });
    dispatch({
      name: 'agent.created',
      payload: { companyId: 'c2', agent: agentView({ id: 'a2', companyId: 'c2' }) },
    });

    const state = useChatStore.getState();
    expect(applied).toBe(false);
    expect(state.messages['chat-1']?.items).toHaveLength(0);
    expect(state.activeChats.map((c) => c.title)).toEqual(['Chat with Assistant']);
    expect(state.typing['chat-1']).toBe(false);
    expect(useAgentsStore.getState().agents).toHaveLength(0);
  });

  it('sets the typing flag and clears it on the reply', () => {
    openChatWithPage();
    const userMessage = messageView({ id: 'u', seq: '1' });
    dispatch({
      name: 'message.created',
      payload: {
        companyId: 'c1',
        chatId: 'chat-1',
        message: userMessage,
        chat: chatView({ pendingReply: true }),
      },
    });
    dispatch({ name: 'agent.typing', payload: { companyId: 'c1', chatId: 'chat-1', typing: true } });
    expect(useChatStore.getState().typing['chat-1']).toBe(true);

    dispatch({
      name: 'message.created',
      payload: {
        companyId: 'c1',
        chatId: 'chat-1',
        message: messageView({ id: 'r', seq: '2', senderType: 'agent', content: 'Hi!' }),
        chat: chatView({ pendingReply: false, updatedAt: '2024-05-01T10:02:00.000Z' }),
      },
    });
    expect(useChatStore.getState().typing['chat-1']).toBe(false);
  });

  it('clears the typing flag when the reply failed', () => {
    openChatWithPage();
    dispatch({ name: 'agent.typing', payload: { companyId: 'c1', chatId: 'chat-1', typing: true } });
    expect(useChatStore.getState().typing['chat-1']).toBe(true);
    dispatch({
      name: 'agent.reply_failed',
      payload: {
        companyId: 'c1',
        chatId: 'chat-1',
        messageId: 'u',
        reason: 'Webhook response error: 500',
      },
    });
    expect(useChatStore.getState().typing['chat-1']).toBe(false);
  });

  it('does not let a slower fetched page bring back a typing flag an event already cleared', async () => {
    openChatWithPage();
    let answer: (page: MessagePage) => void = () => undefined;
    const loading = fetchAndApply(
      () => new Promise<MessagePage>((resolve) => (answer = resolve)),
      (page) => useChatStore.getState().applyPage('chat-1', page, 'newer'),
    );
    // The page was read while the reply was pending; the event saying it ended arrives first.
    dispatch({ name: 'agent.typing', payload: { companyId: 'c1', chatId: 'chat-1', typing: false } });
    answer({ messages: [], hasMore: false, pendingReply: true });
    await loading;
    expect(useChatStore.getState().typing['chat-1']).toBe(false);
  });

  it('moves an archived chat to the Archived list and removes a deleted one', () => {
    openChatWithPage();
    dispatch({ name: 'chat.updated', payload: { companyId: 'c1', chat: chatView({ isArchived: true }) } });
    expect(useChatStore.getState().activeChats).toHaveLength(0);
    expect(useChatStore.getState().archivedChats).toHaveLength(1);

    dispatch({ name: 'chat.deleted', payload: { companyId: 'c1', chatId: 'chat-1' } });
    expect(useChatStore.getState().archivedChats).toHaveLength(0);
    expect(useChatStore.getState().activeChatId).toBeNull();
  });

  it('takes the chats of a deleted agent away with it', () => {
    useAgentsStore.getState().setAgents([agentView(), agentView({ id: 'a2', isDefault: false })]);
    useAgentsStore.getState().selectAgent('a2');
    useChatStore.getState().setChats(false, [chatView({ id: 'x', agentId: 'a2' }), chatView({ id: 'y' })]);
    useChatStore.getState().setActiveChat('x');

    dispatch({ name: 'agent.deleted', payload: { companyId: 'c1', agentId: 'a2' } });

    expect(useChatStore.getState().activeChats.map((c) => c.id)).toEqual(['y']);
    expect(useChatStore.getState().activeChatId).toBeNull();
    expect(useAgentsStore.getState().agents.map((a) => a.id)).toEqual(['default-agent']);
    expect(useAgentsStore.getState().selectedAgentId).toBeNull();
  });

  it('does not let an older answer to an action undo an event that came while it was in flight', async () => {
    openChatWithPage();
    let answer: (chat: ChatView) => void = () => undefined;
    const renaming = fetchAndApply(
      () => new Promise<ChatView>((resolve) => (answer = resolve)),
      (chat) => useChatStore.getState().upsertChat(chat),
    );
    // The agent's reply lands (by event) before the answer, which was read before the reply.
    dispatch({
      name: 'message.created',
      payload: {
        companyId: 'c1',
        chatId: 'chat-1',
        message: messageView({ id: 'r', seq: '2', senderType: 'agent', content: 'Hi!' }),
        chat: chatView({ title: 'Renamed', lastMessage: 'Hi!', updatedAt: '2024-05-01T10:02:00.000Z' }),
      },
    });
    answer(chatView({ title: 'Renamed', lastMessage: 'Hello', updatedAt: '2024-05-01T10:01:00.000Z' }));
    await renaming;

    expect(useChatStore.getState().activeChats[0]?.lastMessage).toBe('Hi!');
  });

  it('replays an event only over the answers that were in flight when it came', async () => {
    openChatWithPage();
    dispatch({ name: 'agent.typing', payload: { companyId: 'c1', chatId: 'chat-1', typing: true } });
    // A page asked for after that event is newer than it: it decides.
    await fetchAndApply(
      () => Promise.resolve<MessagePage>({ messages: [], hasMore: false, pendingReply: false }),
      (page) => useChatStore.getState().applyPage('chat-1', page, 'latest'),
    );
    expect(useChatStore.getState().typing['chat-1']).toBe(false);
  });

  it('counts older pages prepended, for the list to keep its place', () => {
    const store = useChatStore.getState();
    store.applyPage(
      'chat-1',
      {
        messages: [messageView({ id: 'm3', seq: '3' }), messageView({ id: 'm4', seq: '4' })],
        hasMore: true,
        pendingReply: false,
      },
      'latest',
    );
    store.applyPage(
      'chat-1',
      {
        messages: [messageView({ id: 'm1', seq: '1' }), messageView({ id: 'm2', seq: '2' })],
        hasMore: false,
        pendingReply: false,
      },
      'older',
    );
    const page = useChatStore.getState().messages['chat-1'];
    expect(page?.items.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(page?.prepended).toBe(2);
    expect(page?.hasMore).toBe(false);
  });
});
