import type { SearchPage, SearchResult } from '@contracts/search';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatView, MessagePage, MessageView } from '../../../api/contracts';
import { mockFetch, type RecordedCall } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useChatStore } from '../../../stores/chatStore';
import { useCompanyStore } from '../../../stores/companyStore';
import { useSearchStore } from '../../../stores/searchStore';
import { ChatSearch } from './ChatSearch';

const result = (overrides: Partial<SearchResult> = {}): SearchResult => ({
  messageId: 'm-40',
  seq: '40',
  chatId: 'chat-1',
  chatTitle: 'Trip planning',
  chatArchived: false,
  agentId: 'a1',
  senderType: 'user',
  isVoiceMessage: false,
  timestamp: '2024-03-01T10:00:00.000Z',
  segments: [
    { text: 'Book the ', match: false },
    { text: 'ferry', match: true },
    { text: ' <b>before</b> Friday', match: false },
  ],
  files: [],
  ...overrides,
});

const chat: ChatView = {
  id: 'chat-1',
  companyId: 'c1',
  agentId: 'a1',
  title: 'Trip planning',
  isArchived: false,
  lastMessage: 'later',
  lastMessageAt: '2024-03-02T10:00:00.000Z',
  pendingReply: false,
  createdAt: '2024-03-01T09:00:00.000Z',
  updatedAt: '2024-03-02T10:00:00.000Z',
};

const message = (seq: number): MessageView => ({
  id: `m-${seq}`,
  chatId: 'chat-1',
  senderId: 'u1',
  senderType: 'user',
  content: `message ${seq}`,
  timestamp: '2024-03-01T10:00:00.000Z',
  isVoiceMessage: false,
  feedback: null,
  seq: String(seq),
});
/** Messages seq from..to (inclusive), oldest first. */
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

const searchQuery = (call: RecordedCall) => new URL(call.path, 'http://x').searchParams;

describe('chat search (sidebar)', () => {
  beforeEach(() => {
    useCompanyStore
      .getState()
      .setCompanies([{ id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' }]);
    useChatStore.getState().reset('c1');
    useSearchStore.getState().clear();
    useSearchStore.getState().setFocus(null);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    useCompanyStore.getState().reset();
  });

  it('searches on Enter and shows each result with its chat, date and the matching words marked', async () => {
    const calls = mockFetch(() => [200, { results: [result()], nextCursor: null } satisfies SearchPage]);
    renderWithProviders(<ChatSearch />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), ' ferry {Enter}');

    const found = await screen.findByTestId('search-result');
    expect(searchQuery(calls[0]).get('q')).toBe('ferry');
    expect(within(found).getByText('Trip planning')).toBeInTheDocument();
    expect(within(found).getByText('ferry').tagName).toBe('MARK');
    expect(found.querySelector('time')).toHaveAttribute('datetime', '2024-03-01T10:00:00.000Z');
    // The message's own markup is text, never elements.
    expect(found).toHaveTextContent('Book the ferry <b>before</b> Friday');
    expect(found.querySelector('b')).toBeNull();
  });

  it('shows the files a message was found by, marked, even when it has no text', async () => {
    mockFetch(() => [
      200,
      {
        results: [
          result({
            segments: [],
            files: [
              { id: 'f1', name: 'Q3_Report.pdf', mimeType: 'application/pdf', kind: 'file' },
              { id: 'f2', name: 'report-chart.png', mimeType: 'image/png', kind: 'image' },
            ],
          }),
        ],
        nextCursor: null,
      } satisfies SearchPage,
    ]);
    renderWithProviders(<ChatSearch />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'report{Enter}');
    const found = await screen.findByTestId('search-result');
    const files = within(found).getByRole('list', { name: 'Matching files' });
    expect(
      within(files)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.trim()),
    ).toEqual(['Q3_Report.pdf', 'report-chart.png']);
    expect(within(files).getByText('Q3_Report.pdf').tagName).toBe('MARK');
    expect(within(files).getByLabelText('Image')).toBeInTheDocument();
  });

  it("says when nothing matched, and shows the server's reason for a refused search", async () => {
    mockFetch((call) =>
      searchQuery(call).get('q') === 'nothing'
        ? [200, { results: [], nextCursor: null }]
        : [400, { statusCode: 400, message: 'Search text is too long (200 characters at most).' }],
    );
    renderWithProviders(<ChatSearch />);
    const box = screen.getByRole('searchbox', { name: 'Search chats' });
    await userEvent.type(box, 'nothing{Enter}');
    expect(await screen.findByText('No messages found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(box).toHaveValue('');
    expect(screen.queryByText('No messages found')).not.toBeInTheDocument();
    await userEvent.type(box, 'refused{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search text is too long');
  });

  it('appends the next page with the cursor when More results is pressed', async () => {
    const calls = mockFetch((call) =>
      searchQuery(call).get('cursor') === 'next-1'
        ? [200, { results: [result({ messageId: 'm-2', chatTitle: 'Second chat' })], nextCursor: null }]
        : [200, { results: [result()], nextCursor: 'next-1' }],
    );
    renderWithProviders(<ChatSearch />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'ferry{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'More results' }));
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(2));
    expect(screen.getByText('Second chat')).toBeInTheDocument();
    expect(searchQuery(calls[1]).get('q')).toBe('ferry');
    expect(screen.queryByRole('button', { name: 'More results' })).not.toBeInTheDocument();
  });

  it('opens the chat at the message from the keyboard with the page around it, by cursor', async () => {
    useChatStore.getState().setChats(false, [chat]);
    const calls = mockFetch((call) => {
      const url = new URL(call.path, 'http://x');
      if (url.pathname === '/api/search') return [200, { results: [result()], nextCursor: null }];
      const page: MessagePage = url.searchParams.has('before')
        ? { messages: range(16, 40), hasMore: true, pendingReply: false }
        : { messages: range(41, 65), hasMore: true, pendingReply: false };
      return [200, page];
    });
    renderWithProviders(<ChatSearch />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'ferry{Enter}');
    await screen.findByTestId('search-result');
    // From the box, past its clear button, to the result.
    for (let i = 0; i < 3 && document.activeElement !== screen.getByTestId('search-result'); i++)
      await userEvent.tab();
    expect(screen.getByTestId('search-result')).toHaveFocus();
    await userEvent.keyboard('{Enter}');

    await waitFor(() => expect(useSearchStore.getState().focus).toMatchObject({ messageId: 'm-40' }));
    expect(useChatStore.getState().activeChatId).toBe('chat-1');
    const loaded = useChatStore.getState().messages['chat-1'];
    expect(loaded.items.map((m) => m.seq)).toEqual(range(16, 65).map((m) => m.seq));
    // A window: older and newer messages remain on both sides.
    expect(loaded).toMatchObject({ loaded: true, hasMore: true, hasNewer: true });
    // Two requests around the message, asked for together; never the newest page, nor paging back from it.
    const pages = calls.filter((c) => c.path.includes('/messages'));
    expect(pages.map((c) => Object.fromEntries(new URL(c.path, 'http://x').searchParams))).toEqual([
      { limit: '25', before: '41' },
      { limit: '25', after: '40' },
    ]);
  });

  it('a message already loaded in its chat is focused with no request', async () => {
    useChatStore.getState().setChats(false, [chat]);
    useChatStore
      .getState()
      .applyPage('chat-1', { messages: range(20, 69), hasMore: true, pendingReply: false }, 'latest');
    const calls = mockFetch(() => [200, { results: [result()], nextCursor: null }]);
    renderWithProviders(<ChatSearch />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'ferry{Enter}');
    await userEvent.click(await screen.findByTestId('search-result'));

    await waitFor(() => expect(useSearchStore.getState().focus).toMatchObject({ messageId: 'm-40' }));
    expect(useChatStore.getState().activeChatId).toBe('chat-1');
    expect(calls.filter((c) => c.path.includes('/messages'))).toEqual([]);
    expect(useChatStore.getState().messages['chat-1']).toMatchObject({ hasNewer: false });
  });

  it('opens a chat the loaded pages of the list do not hold yet', async () => {
    const newer: ChatView = {
      ...chat,
      id: 'chat-2',
      title: 'Newer chat',
      updatedAt: '2024-04-01T00:00:00.000Z',
    };
    // More pages of the list remain (a cursor): chat-1 sorts on one of them.
    useChatStore.getState().setChats(false, [newer], 'next-page');
    const calls = mockFetch((call) => {
      const url = new URL(call.path, 'http://x');
      if (url.pathname === '/api/search') return [200, { results: [result()], nextCursor: null }];
      if (url.pathname === '/api/chats/chat-1') return [200, chat];
      return [200, { messages: range(30, 60), hasMore: true, pendingReply: false } satisfies MessagePage];
    });
    renderWithProviders(<ChatSearch />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'ferry{Enter}');
    await userEvent.click(await screen.findByTestId('search-result'));

    await waitFor(() => expect(useSearchStore.getState().focus).toMatchObject({ messageId: 'm-40' }));
    expect(useChatStore.getState().activeChatId).toBe('chat-1');
    expect(useChatStore.getState().activeChats.map((c) => c.id)).toContain('chat-1');
    expect(calls.some((c) => c.path.endsWith('/api/chats/chat-1'))).toBe(true);
  });
});
