import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePage, MessageView } from '../../api/contracts';
import { AppProviders } from '../../app/AppProviders';
import { mockFetch, type RecordedCall } from '../../test/mockFetch';
import { chatView, messageView } from '../../test/fixtures';
import { dispatch } from '../../sync/dispatch';
import { useChatStore } from '../../stores/chatStore';
import { loadNewerMessages, returnToLatest } from './chatSync';
import { resyncCompanyData } from '../../workspace/companyData';
import { useChatActions } from './hooks/useChatActions';
import { enterCompany, leaveCompany } from '../../test/workspace';

/** Window mode: a chat's loaded run around an old message, short of its newest one. */

const message = (seq: number, overrides: Partial<MessageView> = {}) =>
  messageView({ id: `m-${seq}`, seq: String(seq), content: `message ${seq}`, ...overrides });
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
const page = (messages: MessageView[], hasMore: boolean, extra: Partial<MessagePage> = {}): MessagePage => ({
  messages,
  hasMore,
  pendingReply: false,
  ...extra,
});
const seqs = () => useChatStore.getState().messages['chat-1']?.items.map((m) => Number(m.seq));
const loadedChat = () => useChatStore.getState().messages['chat-1'];
const query = (call: RecordedCall) => Object.fromEntries(new URL(call.path, 'http://x').searchParams);
const messageCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path.includes('/messages'));

/** Messages 40..90 around 65 loaded (the chat goes on to 200): window mode. */
function openWindow() {
  useChatStore.getState().setChats(false, [chatView()]);
  useChatStore.getState().setActiveChat('chat-1');
  useChatStore.getState().applyWindow('chat-1', page(range(40, 65), true), page(range(66, 90), true));
}

const created = (m: MessageView) =>
  dispatch({
    name: 'message.created',
    payload: {
      companyId: 'c1',
      chatId: 'chat-1',
      message: m,
      chat: chatView({ lastMessage: m.content, updatedAt: '2024-06-01T00:00:00.000Z' }),
    },
  });

// Both suites start from one company, no chat loaded and no reply streaming.
beforeEach(enterCompany);
afterEach(() => {
  vi.restoreAllMocks();
  leaveCompany();
});

describe('chat store: window mode', () => {
  it('a window replaces the loaded run and holds newer messages back while more remain', () => {
    useChatStore.getState().applyPage('chat-1', page(range(151, 200), true), 'latest');
    const before = loadedChat()!.run;
    openWindow();
    expect(seqs()).toEqual(range(40, 90).map((m) => Number(m.seq)));
    expect(loadedChat()).toMatchObject({ loaded: true, hasMore: true, hasNewer: true, prepended: 0 });
    expect(loadedChat()!.run).toBe(before + 1);

    // A window that reaches the newest message is the normal mode.
    useChatStore.getState().applyWindow('chat-1', page(range(180, 190), true), page(range(191, 200), false));
    expect(loadedChat()).toMatchObject({ hasNewer: false });
    expect(seqs()).toEqual(range(180, 200).map((m) => Number(m.seq)));
  });

  it('a live message past the window is not appended (no gap) but the chat list still moves', () => {
    openWindow();
    created(message(201, { content: 'fresh news' }));
    expect(seqs()).not.toContain(201);
    expect(seqs()!.at(-1)).toBe(90);
    expect(useChatStore.getState().activeChats[0]?.lastMessage).toBe('fresh news');
    // A change to a message inside the window shows.
    dispatch({
      name: 'message.updated',
      payload: { companyId: 'c1', chatId: 'chat-1', message: message(50, { feedback: 'like' }) },
    });
    expect(loadedChat()!.items.find((m) => m.seq === '50')?.feedback).toBe('like');
  });

  it('a newest page asked for before the window opened does not replace it', () => {
    openWindow();
    useChatStore.getState().applyPage('chat-1', page(range(151, 200), true), 'latest');
    expect(seqs()!.at(-1)).toBe(90);
    expect(loadedChat()!.hasNewer).toBe(true);
  });

  it('older pages still load in a window; newer ones append until the last ends the window', () => {
    openWindow();
    useChatStore.getState().applyPage('chat-1', page(range(1, 39), false), 'older');
    expect(loadedChat()).toMatchObject({ hasMore: false, prepended: 39, hasNewer: true });

    useChatStore.getState().applyPage('chat-1', page(range(91, 140), true), 'newer');
    expect(loadedChat()!.hasNewer).toBe(true);
    useChatStore.getState().applyPage('chat-1', page(range(141, 200), false), 'newer');
    expect(loadedChat()!.hasNewer).toBe(false);
    expect(seqs()).toEqual(range(1, 200).map((m) => Number(m.seq)));

    // Back in the normal mode: live messages append again.
    created(message(201));
    expect(seqs()!.at(-1)).toBe(201);
  });

  it('a resync page in the normal mode never starts a window (hasMore there means: keep paging)', () => {
    useChatStore.getState().applyPage('chat-1', page(range(151, 200), true), 'latest');
    useChatStore.getState().applyPage('chat-1', page(range(201, 250), true), 'newer');
    expect(loadedChat()!.hasNewer).toBe(false);
    created(message(300));
    expect(seqs()!.at(-1)).toBe(300);
  });

  it('reload puts the newest page in place of the window, with what came meanwhile', () => {
    openWindow();
    created(message(201));
    useChatStore
      .getState()
      .applyPage('chat-1', page(range(152, 201), true, { pendingReply: true }), 'reload');
    expect(seqs()).toEqual(range(152, 201).map((m) => Number(m.seq)));
    expect(loadedChat()).toMatchObject({ hasNewer: false, hasMore: true, prepended: 0 });
    expect(useChatStore.getState().typing['chat-1']).toBe(true);
  });
});

describe('chat sync: paging a window', () => {
  it('loads the page after the newest loaded message; the last one brings the live message held back', async () => {
    openWindow();
    const live = message(201, { content: 'while windowed' });
    created(live);
    // The server's chat: 1..200 and the live one.
    const server = [...range(1, 200), live];
    const calls = mockFetch((call) => {
      const after = Number(query(call).after);
      return [200, page(server.slice(after, after + 50), after + 50 < server.length)];
    });
    await loadNewerMessages('c1', 'chat-1');
    expect(query(calls[0])).toEqual({ after: '90', limit: '50' });
    expect(loadedChat()).toMatchObject({ hasNewer: true, loadingNewer: false });
    await loadNewerMessages('c1', 'chat-1');
    await loadNewerMessages('c1', 'chat-1');
    expect(messageCalls(calls).map((c) => query(c).after)).toEqual(['90', '140', '190']);
    expect(loadedChat()!.hasNewer).toBe(false);
    expect(loadedChat()!.items.at(-1)?.content).toBe('while windowed');
    // Nothing newer to ask for in the normal mode.
    await loadNewerMessages('c1', 'chat-1');
    expect(calls).toHaveLength(3);
  });

  it('Jump to latest asks for the newest page (no cursor) and leaves the window', async () => {
    openWindow();
    const calls = mockFetch(() => [200, page(range(152, 201), true)]);
    await returnToLatest('c1', 'chat-1');
    expect(query(calls[0])).toEqual({ limit: '50' });
    expect(loadedChat()).toMatchObject({ hasNewer: false });
    expect(seqs()!.at(0)).toBe(152);
  });

  it('a resync after a reconnect leaves a window alone (no paging forward from it)', async () => {
    openWindow();
    const calls = mockFetch((call) => {
      const url = new URL(call.path, 'http://x');
      if (url.pathname === '/api/agents') return [200, []];
      if (url.pathname === '/api/chats') return [200, { chats: [chatView()], nextCursor: null }];
      return [200, page(range(91, 140), true)];
    });
    await resyncCompanyData();
    expect(messageCalls(calls)).toEqual([]);
    expect(seqs()!.at(-1)).toBe(90);
  });

  it('a resync pages forward, then reloads the newest page over what is loaded (a reply regenerated meanwhile goes)', async () => {
    useChatStore.getState().setChats(false, [chatView()]);
    useChatStore.getState().setActiveChat('chat-1');
    useChatStore.getState().applyPage('chat-1', page(range(1, 10), false), 'latest');
    // While offline: the reply 10 was regenerated (now 12, version 2), and message 9 rated.
    const newest = [...range(1, 8), message(9, { feedback: 'like' }), message(12, { version: 2 })];
    const calls = mockFetch((call) => {
      const url = new URL(call.path, 'http://x');
      if (url.pathname === '/api/agents') return [200, []];
      if (url.pathname === '/api/chats') return [200, { chats: [chatView()], nextCursor: null }];
      if (url.searchParams.get('after')) return [200, page([message(12, { version: 2 })], false)];
      return [200, page(newest, false)];
    });
    await resyncCompanyData();
    expect(messageCalls(calls).map((c) => query(c).after ?? null)).toEqual(['10', null]);
    expect(seqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 12]);
    expect(loadedChat()!.items.find((m) => m.seq === '9')?.feedback).toBe('like');
  });

  it('sending from a window first goes back to the latest page: the sent message shows in its place', async () => {
    openWindow();
    const sent = message(202, { content: 'my reply' });
    const calls = mockFetch((call) =>
      call.method === 'POST' ? [201, sent] : [200, page(range(152, 201), true)],
    );
    const wrapper = ({ children }: { children: ReactNode }) => createElement(AppProviders, null, children);
    const { result } = renderHook(() => useChatActions(), { wrapper });
    await expect(result.current.sendMessage('my reply')).resolves.toBe(true);
    expect(calls.map((c) => c.method)).toEqual(['GET', 'POST']);
    expect(query(calls[0])).toEqual({ limit: '50' });
    expect(seqs()).toEqual([...range(152, 201), sent].map((m) => Number(m.seq)));
    expect(loadedChat()!.hasNewer).toBe(false);
  });
});
