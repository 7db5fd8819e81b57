import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAgentsStore } from '../../../stores/agentsStore';
import { useCompanyStore } from '../../../stores/companyStore';
import { agentView } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { AgentDetails } from './AgentDetails';
import { REPLY_DEADLINE_RULE } from './ReplyDeadlineField';

describe('AgentDetails', () => {
  it('shows an agent that is not editable (the default agent) read-only', () => {
    renderWithProviders(
      <AgentDetails agent={agentView({ isEditable: false })} onDeleted={() => undefined} />,
    );
    expect(screen.getByText('This agent cannot be edited')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByLabelText('Description')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete Agent/ })).not.toBeInTheDocument();
  });

  it('lets an editable agent be changed', () => {
    renderWithProviders(
      <AgentDetails
        agent={agentView({
          id: 'a2',
          isDefault: false,
          isEditable: true,
          webhook: 'https://example.com/hook',
        })}
        onDeleted={() => undefined}
      />,
    );
    expect(screen.queryByText('This agent cannot be edited')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  describe('reply deadline (long-running agents)', () => {
    const editable = agentView({
      id: 'a2',
      isDefault: false,
      isEditable: true,
      webhook: 'https://example.com/hook',
      callbackDeadlineMinutes: 10,
    });
    beforeEach(() => {
      useCompanyStore
        .getState()
        .setCompanies([{ id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' }]);
      useAgentsStore.getState().reset('c1');
      useAgentsStore.getState().setAgents([agentView(), editable]);
    });
    afterEach(() => {
      vi.restoreAllMocks();
      useCompanyStore.getState().reset();
    });

    it('refuses a deadline outside 1 to 60 minutes with a readable message, sending nothing', async () => {
      const calls = mockFetch(() => [200, editable]);
      renderWithProviders(<AgentDetails agent={editable} onDeleted={() => undefined} />);
      const field = screen.getByLabelText('Reply deadline (minutes)');
      expect(field).toHaveValue('10');
      for (const bad of ['61', '0']) {
        await userEvent.clear(field);
        await userEvent.type(field, bad);
        await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
        expect(await screen.findByText(REPLY_DEADLINE_RULE)).toBeInTheDocument();
      }
      expect(calls).toEqual([]);
    });

    it('saves a new deadline with the agent', async () => {
      const calls = mockFetch(() => [200, { ...editable, callbackDeadlineMinutes: 30 }]);
      renderWithProviders(<AgentDetails agent={editable} onDeleted={() => undefined} />);
      const field = screen.getByLabelText('Reply deadline (minutes)');
      await userEvent.clear(field);
      await userEvent.type(field, '30');
      await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]).toMatchObject({
        method: 'PATCH',
        path: '/api/agents/a2',
        body: expect.objectContaining({ callbackDeadlineMinutes: 30 }),
      });
    });
  });
});
