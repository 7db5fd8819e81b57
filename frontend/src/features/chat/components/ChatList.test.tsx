import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useChatStore } from '../../../stores/chatStore';

const loadMoreChats = vi.fn<(companyId: string, archived: boolean) => Promise<void>>(() => Promise.resolve());
vi.mock('../chatSync', () => ({
  openChat: vi.fn(),
  loadArchivedChats: vi.fn(() => Promise.resolve()),
  loadOlderMessages: vi.fn(() => Promise.resolve()),
  loadMoreChats: (companyId: string, archived: boolean) => loadMoreChats(companyId, archived),
}));

const { ChatList } = await import('./ChatList');

/** An IntersectionObserver the test drives: `show()` puts every observed element in view. */
const observers: Array<{ callback: IntersectionObserverCallback; elements: Element[] }> = [];
class FakeObserver {
  elements: Element[] = [];
  constructor(public callback: IntersectionObserverCallback) {
    observers.push(this);
  }
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {
    this.elements = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
}
const show = (visible: boolean) =>
  act(() => {
    for (const o of observers)
      o.callback(
        o.elements.map((target) => ({ target, isIntersecting: visible }) as IntersectionObserverEntry),
        o as unknown as IntersectionObserver,
      );
  });

describe('ChatList: more chats on scroll', () => {
  beforeEach(() => {
    observers.length = 0;
    loadMoreChats.mockClear();
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    useChatStore.getState().reset('c1');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('offers "Load more chats" while the server has more, and loads when it scrolls into view', async () => {
    useChatStore.getState().setChats(false, [chatView({ id: 'a', title: 'First chat' })], 'cursor-1');
    renderWithProviders(<ChatList />);
    const button = await screen.findByRole('button', { name: 'Load more chats' });
    expect(loadMoreChats).not.toHaveBeenCalled();
    show(true);
    expect(loadMoreChats).toHaveBeenCalledWith('c1', false);
    // Still in view after the page came (a tall window): the next one, once per page.
    act(() =>
      useChatStore.getState().appendChats(false, [chatView({ id: 'b', title: 'Second' })], 'cursor-2'),
    );
    expect(loadMoreChats).toHaveBeenCalledTimes(2);
    show(false);
    await userEvent.setup().click(button);
    expect(loadMoreChats).toHaveBeenCalledTimes(3);
    // The last page in: no button.
    act(() => useChatStore.getState().appendChats(false, [], null));
    expect(screen.queryByRole('button', { name: 'Load more chats' })).toBeNull();
  });

  it('shows no button when the first page holds the whole list', async () => {
    useChatStore.getState().setChats(false, [chatView({ id: 'a', title: 'Only chat' })], null);
    renderWithProviders(<ChatList />);
    expect(await screen.findByText('Only chat')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more chats' })).toBeNull();
  });
});
