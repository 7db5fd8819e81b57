import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatPage } from '../../api/contracts';
import { useChatStore } from '../../stores/chatStore';
import { chatView, messageView } from '../../test/fixtures';
import { dispatch } from '../../sync/dispatch';
import { enterCompany, leaveCompany } from '../../test/workspace';

// The network boundary: each list request waits until the test answers it.
const requests: Array<{
  archived: boolean;
  cursor: string | null | undefined;
  answer: (p: ChatPage) => void;
}> = [];
vi.mock('../../api/chatsApi', () => ({
  MESSAGE_PAGE_SIZE: 50,
  CHAT_PAGE_SIZE: 50,
  chatsApi: {
    list: (_company: string, archived: boolean, cursor?: string | null) =>
      new Promise<ChatPage>((answer) => requests.push({ archived, cursor, answer })),
  },
}));

const { loadMoreChats } = await import('./chatSync');

/** Chat n of a list, newest first: chat-1 is the newest. */
const chat = (n: number, overrides: Parameters<typeof chatView>[0] = {}) =>
  chatView({
    id: `chat-${String(n).padStart(3, '0')}`,
    updatedAt: new Date(Date.UTC(2024, 4, 1) - n * 1000).toISOString(),
    ...overrides,
  });
const ids = () => useChatStore.getState().activeChats.map((c) => c.id);

describe('the chat list, a page at a time, with live events', () => {
  beforeEach(() => {
    requests.length = 0;
    enterCompany();
    useChatStore.getState().setChats(false, [chat(1), chat(2), chat(3)], 'cursor-after-3');
  });
  afterEach(leaveCompany);

  it('appends the next page after the first, each chat once, and stops at the last page', async () => {
    const loading = loadMoreChats('c1', false);
    expect(useChatStore.getState().loadingMoreActive).toBe(true);
    expect(requests).toMatchObject([{ archived: false, cursor: 'cursor-after-3' }]);
    // A second scroll while the page loads asks nothing more.
    await loadMoreChats('c1', false);
    expect(requests).toHaveLength(1);
    requests[0].answer({ chats: [chat(3), chat(4), chat(5)], nextCursor: null });
    await loading;
    expect(ids()).toEqual(['chat-001', 'chat-002', 'chat-003', 'chat-004', 'chat-005']);
    expect(useChatStore.getState()).toMatchObject({ activeCursor: null, loadingMoreActive: false });
    await loadMoreChats('c1', false);
    expect(requests).toHaveLength(1);
  });

  it('a message in a chat not loaded yet moves it to the top; its older copy on a later page does not come back', async () => {
    const moved = chat(5, { updatedAt: '2024-06-01T00:00:00.000Z', lastMessage: 'new' });
    dispatch({
      name: 'message.created',
      payload: { companyId: 'c1', chatId: moved.id, chat: moved, message: messageView({ chatId: moved.id }) },
    });
    expect(ids()).toEqual(['chat-005', 'chat-001', 'chat-002', 'chat-003']);
    const loading = loadMoreChats('c1', false);
    requests[0].answer({ chats: [chat(4), chat(5), chat(6)], nextCursor: 'cursor-after-6' });
    await loading;
    expect(ids()).toEqual(['chat-005', 'chat-001', 'chat-002', 'chat-003', 'chat-004', 'chat-006']);
    expect(useChatStore.getState().activeChats[0].lastMessage).toBe('new');
  });

  it('an event about a chat further down than the loaded pages leaves it to its page', () => {
    dispatch({ name: 'chat.updated', payload: { companyId: 'c1', chat: chat(40, { title: 'Renamed' }) } });
    expect(ids()).toEqual(['chat-001', 'chat-002', 'chat-003']);
    // A chat created elsewhere is the newest: it shows at once.
    dispatch({
      name: 'chat.created',
      payload: { companyId: 'c1', chat: chat(0, { updatedAt: '2024-06-01T00:00:00.000Z' }) },
    });
    expect(ids()[0]).toBe('chat-000');
    // With every page loaded, an event puts any chat in its place.
    useChatStore.getState().setChats(false, [chat(1), chat(2)], null);
    dispatch({ name: 'chat.updated', payload: { companyId: 'c1', chat: chat(40, { title: 'Renamed' }) } });
    expect(ids()).toEqual(['chat-001', 'chat-002', 'chat-040']);
  });

  it('a chat an answer brings (a search result, a restore) is listed whatever its place', () => {
    useChatStore.getState().upsertChat(chat(40, { title: 'Found by search' }));
    expect(ids()).toEqual(['chat-001', 'chat-002', 'chat-003', 'chat-040']);
    // Its page, loaded later, does not list it twice.
    useChatStore.getState().appendChats(false, [chat(39), chat(40)], null);
    expect(ids()).toEqual(['chat-001', 'chat-002', 'chat-003', 'chat-039', 'chat-040']);
  });

  it('the open chat is kept in the list whatever its place', () => {
    useChatStore.getState().setActiveChat('chat-040');
    dispatch({ name: 'chat.updated', payload: { companyId: 'c1', chat: chat(40) } });
    expect(ids()).toContain('chat-040');
  });

  it('a chat deleted or archived while the next page loads stays gone when the page arrives', async () => {
    const loading = loadMoreChats('c1', false);
    dispatch({ name: 'chat.deleted', payload: { companyId: 'c1', chatId: 'chat-004' } });
    dispatch({ name: 'chat.updated', payload: { companyId: 'c1', chat: chat(5, { isArchived: true }) } });
    requests[0].answer({ chats: [chat(4), chat(5), chat(6)], nextCursor: 'cursor-after-6' });
    await loading;
    expect(ids()).toEqual(['chat-001', 'chat-002', 'chat-003', 'chat-006']);
    expect(useChatStore.getState().activeCursor).toBe('cursor-after-6');
  });

  it('a page that answers after the list was loaded again from the start is dropped', async () => {
    const loading = loadMoreChats('c1', false);
    useChatStore.getState().setChats(false, [chat(1), chat(2)], 'cursor-after-2');
    requests[0].answer({ chats: [chat(4), chat(5)], nextCursor: 'cursor-after-5' });
    await loading;
    expect(ids()).toEqual(['chat-001', 'chat-002']);
    expect(useChatStore.getState().activeCursor).toBe('cursor-after-2');
  });

  it('orders chats with the same updatedAt by id, descending, as the server pages them', () => {
    const at = '2024-05-01T09:00:00.000Z';
    useChatStore.getState().setChats(true, [chat(7, { updatedAt: at }), chat(9, { updatedAt: at })], null);
    useChatStore.getState().appendChats(true, [chat(8, { updatedAt: at })], null);
    expect(useChatStore.getState().archivedChats.map((c) => c.id)).toEqual([
      'chat-009',
      'chat-008',
      'chat-007',
    ]);
  });
});
