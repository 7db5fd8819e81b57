import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentView, ChatPage } from '../api/contracts';
import { useChatStore } from '../stores/chatStore';
import { useCompanyStore } from '../stores/companyStore';
import { agentView, chatView } from '../test/fixtures';
import { dispatch } from '../sync/dispatch';

// The network boundary: list answers that the test releases when it wants.
const pending: {
  agents?: (v: AgentView[]) => void;
  active?: (v: ChatPage) => void;
  archived?: (v: ChatPage) => void;
} = {};
vi.mock('../api/agentsApi', () => ({
  agentsApi: { list: () => new Promise<AgentView[]>((resolve) => (pending.agents = resolve)) },
}));
vi.mock('../api/chatsApi', () => ({
  MESSAGE_PAGE_SIZE: 50,
  chatsApi: {
    list: (_company: string, archived: boolean) =>
      new Promise<ChatPage>((resolve) => {
        if (archived) pending.archived = resolve;
        else pending.active = resolve;
      }),
  },
}));

const { loadCompanyData } = await import('./companyData');

describe('live events during a list load', () => {
  beforeEach(() => {
    useCompanyStore
      .getState()
      .setCompanies([{ id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' }]);
    useCompanyStore.getState().setCurrentCompany('c1');
  });
  afterEach(() => useCompanyStore.getState().reset());

  it('a chat created while the lists load shows at once and survives the older list answer', async () => {
    const loading = loadCompanyData('c1');
    const created = chatView({ id: 'chat-new', title: 'Started elsewhere' });
    const event = { companyId: 'c1', chat: created };
    expect(dispatch({ name: 'chat.created', payload: event })).toBe(true);
    expect(useChatStore.getState().activeChats.map((c) => c.id)).toContain('chat-new');

    // The lists were read before the chat existed.
    pending.agents?.([agentView()]);
    pending.active?.({ chats: [chatView({ id: 'chat-old' })], nextCursor: null });
    pending.archived?.({ chats: [], nextCursor: null });
    await loading;

    expect(
      useChatStore
        .getState()
        .activeChats.map((c) => c.id)
        .sort(),
    ).toEqual(['chat-new', 'chat-old']);
  });
});
