import { afterEach, describe, expect, it, vi } from 'vitest';

async function freshStore() {
  vi.resetModules();
  const { http } = await import('../api/httpClient');
  const { bootstrapApi } = await import('../api/bootstrapApi');
  const refresh = vi.spyOn(http, 'refresh').mockRejectedValue(new Error('offline'));
  vi.spyOn(bootstrapApi, 'get').mockRejectedValue(new Error('offline'));
  const { useSessionStore } = await import('../stores/sessionStore');
  const { initializeSession } = await import('./session');
  return { useSessionStore, initializeSession, refresh };
}

afterEach(() => {
  document.cookie = 'sb_signed_in=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('session check at start', () => {
  it('shows a visitor with no session hint the sign-in page without probing the server', async () => {
    const { useSessionStore, initializeSession, refresh } = await freshStore();
    await initializeSession();
    expect(useSessionStore.getState().status).toBe('unauthenticated');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('restores the session when the server left its hint cookie', async () => {
    document.cookie = 'sb_signed_in=1; path=/';
    const { useSessionStore, initializeSession, refresh } = await freshStore();
    refresh.mockResolvedValue(undefined as never);
    const { bootstrapApi } = await import('../api/bootstrapApi');
    vi.mocked(bootstrapApi.get).mockResolvedValue({
      user: { id: 'u1', email: 'a@example.com', name: 'A B' },
      companies: [],
      chat: null,
    } as never);
    await initializeSession();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(bootstrapApi.get).toHaveBeenCalledWith({ companyId: undefined, chat: false });
    expect(useSessionStore.getState().status).toBe('authenticated');
  });

  it("on the chat, takes the screen's opening data with the profile: no list or message request follows", async () => {
    document.cookie = 'sb_signed_in=1; path=/';
    localStorage.setItem('currentCompanyId', 'c2');
    const { initializeSession, refresh } = await freshStore();
    refresh.mockResolvedValue(undefined as never);
    const { bootstrapApi } = await import('../api/bootstrapApi');
    const { agentView, chatView, messageView } = await import('../test/fixtures');
    const first = chatView({ id: 'chat-1', agentId: 'agent-1' });
    vi.mocked(bootstrapApi.get).mockResolvedValue({
      user: { id: 'u1', email: 'a@example.com', name: 'A B' },
      companies: [
        { id: 'c1', name: 'One', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
        { id: 'c2', name: 'Two', role: 'user', createdAt: '2024-01-01T00:00:00Z' },
      ],
      chat: {
        companyId: 'c2',
        agents: [agentView({ id: 'agent-1' })],
        activeChats: [first, chatView({ id: 'chat-0', agentId: 'agent-1' })],
        firstChat: {
          chatId: 'chat-1',
          page: { messages: [messageView({ chatId: 'chat-1' })], hasMore: false, pendingReply: false },
        },
        version: 'v-c2',
      },
    } as never);
    const fetch = vi.spyOn(globalThis, 'fetch');
    await initializeSession({ chatScreen: true });
    expect(bootstrapApi.get).toHaveBeenCalledWith({ companyId: 'c2', chat: true });

    const { useCompanyStore } = await import('../stores/companyStore');
    const { useChatStore } = await import('../stores/chatStore');
    const { useAgentsStore } = await import('../stores/agentsStore');
    const { loadCompanyData } = await import('./companyData');
    expect(useCompanyStore.getState().currentCompanyId).toBe('c2');
    expect(useChatStore.getState().activeChatId).toBe('chat-1');
    expect(useChatStore.getState().messages['chat-1']?.loaded).toBe(true);
    expect(useChatStore.getState().archivedLoaded).toBe(false);
    expect(useAgentsStore.getState().selectedAgentId).toBe('agent-1');
    // The chat screen mounts: its load uses what came with the session.
    await loadCompanyData('c2');
    expect(fetch).not.toHaveBeenCalled();
    // Its version goes in the socket's handshake: connecting reloads the chat only if it changed.
    const { offlineMarkers } = await import('../sync/dispatch');
    expect(offlineMarkers()).toEqual({ chat: { companyId: 'c2', version: 'v-c2' } });
    expect(useChatStore.getState().activeChats.map((c) => c.id)).toEqual(['chat-1', 'chat-0']);
  });
});
