import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePage, MessageView } from '../../../api/contracts';
import { messageView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useSearchStore } from '../../../stores/searchStore';
import { useChatStore, type ChatMessages } from '../../../stores/chatStore';

const loadNewerMessages = vi.fn<(companyId: string, chatId: string) => Promise<void>>(() =>
  Promise.resolve(),
);
const returnToLatest = vi.fn<(companyId: string, chatId: string) => Promise<void>>(() => Promise.resolve());
vi.mock('../chatSync', () => ({
  loadNewerMessages: (companyId: string, chatId: string) => loadNewerMessages(companyId, chatId),
  returnToLatest: (companyId: string, chatId: string) => returnToLatest(companyId, chatId),
}));

const { MessageList } = await import('./MessageList');

const message = (seq: number): MessageView =>
  messageView({ id: `m-${seq}`, seq: String(seq), content: `message ${seq}` });
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
const page = (messages: MessageView[], hasMore: boolean): MessagePage => ({
  messages,
  hasMore,
  pendingReply: false,
});

/** The list as the chat view shows it, following the store; every item 100 px in a 300 px viewport. */
function List({ onLoadOlder = () => undefined }: { onLoadOlder?: () => void }) {
  const messages = useChatStore((s) => s.messages['chat-1']);
  const typing = useChatStore((s) => !!s.typing['chat-1']);
  if (!messages) return null;
  return (
    <div style={{ height: 300 }}>
      <MessageList
        chatId="chat-1"
        messages={messages}
        typing={typing}
        onLoadOlder={onLoadOlder}
        userName="Me"
        agentName="Assistant"
      />
    </div>
  );
}
const wrap = (children: ReactNode) => (
  <VirtuosoMockContext.Provider value={{ viewportHeight: 300, itemHeight: 100 }}>
    {children}
  </VirtuosoMockContext.Provider>
);
const loaded = (): ChatMessages => useChatStore.getState().messages['chat-1']!;

describe('MessageList: a window of old messages', () => {
  beforeEach(() => {
    loadNewerMessages.mockClear();
    returnToLatest.mockClear();
    useChatStore.getState().reset('c1');
  });
  afterEach(() => vi.clearAllMocks());

  it('at the bottom of a window, loads the newer page; Jump to latest goes back to the newest', async () => {
    useChatStore.getState().applyWindow('chat-1', page(range(1, 3), false), page(range(4, 6), true));
    renderWithProviders(wrap(<List />));
    // Opened at its end (no focus): the bottom is reached, the next newer page is asked for.
    await waitFor(() => expect(loadNewerMessages).toHaveBeenCalledWith('c1', 'chat-1'));
    const jump = screen.getByRole('button', { name: 'Jump to latest' });
    await userEvent.click(jump);
    expect(returnToLatest).toHaveBeenCalledWith('c1', 'chat-1');
  });

  it('in the normal mode, no newer page is asked for and no Jump to latest is offered', async () => {
    useChatStore.getState().applyPage('chat-1', page(range(1, 6), false), 'latest');
    renderWithProviders(wrap(<List />));
    expect(await screen.findByText('message 6')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).not.toBeInTheDocument();
    expect(loadNewerMessages).not.toHaveBeenCalled();
  });

  it('a window hides the reply being written after its last message; back at the newest it shows', async () => {
    useChatStore.getState().applyWindow('chat-1', page(range(1, 3), false), page(range(4, 6), true));
    useChatStore.getState().setTyping('chat-1', true);
    renderWithProviders(wrap(<List />));
    expect(await screen.findByText('message 6')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Agent is typing' })).not.toBeInTheDocument();

    // The last newer page: the window reaches the newest message, the list is the chat again.
    useChatStore.getState().applyPage('chat-1', { ...page(range(7, 8), false), pendingReply: true }, 'newer');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull());
    expect(loaded().hasNewer).toBe(false);
    expect(await screen.findByRole('status', { name: 'Agent is typing' })).toBeInTheDocument();
  });

  it('a search result opens the window at its message, highlighted, without paging newer', async () => {
    useSearchStore.getState().setFocus({ chatId: 'chat-1', messageId: 'm-25', nonce: 1 });
    useChatStore.getState().applyWindow('chat-1', page(range(1, 25), true), page(range(26, 50), true));
    renderWithProviders(wrap(<List />));
    const target = await screen.findByText('message 25');
    expect(target.closest('[data-highlighted]')).not.toBeNull();
    expect(screen.queryByText('message 50')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Jump to latest' })).toBeInTheDocument();
    expect(loadNewerMessages).not.toHaveBeenCalled();
    expect(useSearchStore.getState().focus).toBeNull();
  });
});
