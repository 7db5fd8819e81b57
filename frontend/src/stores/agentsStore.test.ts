import { beforeEach, describe, expect, it } from 'vitest';
import { agentView } from '../test/fixtures';
import { useAgentsStore } from './agentsStore';

describe('agents store: the selected agent', () => {
  beforeEach(() => {
    useAgentsStore.getState().reset('c1');
    useAgentsStore.getState().setAgents([agentView(), agentView({ id: 'a2', isDefault: false })]);
    useAgentsStore.getState().selectAgent('a2');
  });

  it('stays selected while the reloaded list still has it, active', () => {
    useAgentsStore
      .getState()
      .setAgents([agentView(), agentView({ id: 'a2', isDefault: false, name: 'New' })]);
    expect(useAgentsStore.getState().selectedAgentId).toBe('a2');
  });

  it('leaves the selection when a reloaded list no longer has it (deleted elsewhere)', () => {
    useAgentsStore.getState().setAgents([agentView()]);
    expect(useAgentsStore.getState().selectedAgentId).toBeNull();
  });

  it('leaves the selection when it was deactivated', () => {
    useAgentsStore
      .getState()
      .setAgents([agentView(), agentView({ id: 'a2', isDefault: false, isActive: false })]);
    expect(useAgentsStore.getState().selectedAgentId).toBeNull();

    useAgentsStore.getState().selectAgent('default-agent');
    useAgentsStore.getState().upsertAgent(agentView({ isActive: false }));
    expect(useAgentsStore.getState().selectedAgentId).toBeNull();
  });
});
