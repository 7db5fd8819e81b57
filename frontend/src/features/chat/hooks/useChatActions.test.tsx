import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { enterCompany, leaveCompany } from '../../../test/workspace';
import { useAgentsStore } from '../../../stores/agentsStore';
import { useChatStore } from '../../../stores/chatStore';
import { useChatActions } from './useChatActions';

const QUOTA = "You have reached your company's limit of 2 messages per user per day. It resets at 00:00 UTC.";

function Sender() {
  const actions = useChatActions();
  const [sent, setSent] = useState<string>('not yet');
  return (
    <>
      <button onClick={() => void actions.sendMessage('third one').then((ok) => setSent(String(ok)))}>
        Send
      </button>
      <output>{sent}</output>
    </>
  );
}

describe('sending a message over a quota', () => {
  beforeEach(() => {
    enterCompany();
    useAgentsStore.setState({ selectedAgentId: 'a1' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    leaveCompany();
  });

  it("shows the server's quota message in the error toast and reports the send failed (the text stays)", async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST' && call.path.endsWith('/api/messages')
        ? [429, { statusCode: 429, code: 'TOO_MANY_REQUESTS', message: QUOTA }]
        : [404, { message: 'no such route in this test' }],
    );
    renderWithProviders(<Sender />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Error sending message')).toBeInTheDocument();
    expect(await screen.findByText(QUOTA)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('false');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(useChatStore.getState().activeChatId).toBeNull();
  });
});
