import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { AgentDetails } from './AgentDetails';

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
});
