import { act, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/AppProviders';
import { useAgentsStore } from '../../../stores/agentsStore';
import { useChatStore } from '../../../stores/chatStore';
import { agentView, chatView } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mockFetch';
import { useAgentActions } from './useAgentActions';
import { enterCompany, leaveCompany } from '../../../test/workspace';

function renderActions() {
  return renderHook(() => useAgentActions(), { wrapper: AppProviders }).result;
}

describe('useAgentActions', () => {
  beforeEach(() => {
    enterCompany();
    useAgentsStore.getState().setAgents([agentView(), agentView({ id: 'a2', isDefault: false })]);
    useAgentsStore.getState().selectAgent('a2');
    useChatStore.getState().setChats(false, [chatView({ id: 'x', agentId: 'a2' }), chatView({ id: 'y' })]);
    useChatStore.getState().setActiveChat('x');
  });
  afterEach(leaveCompany);

  it('deletes an agent with its chats, and leaves its open chat', async () => {
    const calls = mockFetch(() => [204]);
    const actions = renderActions();

    await act(() => actions.current.deleteAgent('a2'));

    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/agents/a2']);
    expect(useAgentsStore.getState().agents.map((a) => a.id)).toEqual(['default-agent']);
    expect(useAgentsStore.getState().selectedAgentId).toBeNull();
    expect(useChatStore.getState().activeChats.map((c) => c.id)).toEqual(['y']);
    expect(useChatStore.getState().activeChatId).toBeNull();
    expect(await screen.findByText('Agent deleted')).toBeInTheDocument();
  });

  it('keeps everything and says why when the delete is refused', async () => {
    mockFetch(() => [404, { statusCode: 404, error: 'NOT_FOUND', message: 'Agent not found' }]);
    const actions = renderActions();

    let deleted = true;
    await act(async () => {
      deleted = await actions.current.deleteAgent('a2');
    });

    expect(deleted).toBe(false);
    expect(useAgentsStore.getState().agents).toHaveLength(2);
    expect(useChatStore.getState().activeChatId).toBe('x');
    expect(await screen.findByText('Error deleting agents')).toBeInTheDocument();
    expect(screen.getByText('Agent not found')).toBeInTheDocument();
  });

  it('saves an agent and hands back a newly generated signing secret once', async () => {
    mockFetch(() => [
      200,
      { ...agentView({ id: 'a2', isDefault: false }), hasSigningSecret: true, signingSecret: 's3cr3t' },
    ]);
    const actions = renderActions();

    let saved: Awaited<ReturnType<typeof actions.current.updateAgent>> = null;
    await act(async () => {
      saved = await actions.current.updateAgent('a2', { signed: true });
    });

    expect(saved).toMatchObject({ signingSecret: 's3cr3t', agent: { id: 'a2', hasSigningSecret: true } });
    const stored = useAgentsStore.getState().agents.find((a) => a.id === 'a2');
    expect(stored?.hasSigningSecret).toBe(true);
    expect(stored).not.toHaveProperty('signingSecret');
  });
});
