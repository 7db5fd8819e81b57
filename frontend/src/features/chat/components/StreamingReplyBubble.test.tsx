import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useStreamingStore } from '../../../stores/streamingStore';
import { StreamingReplyBubble } from './StreamingReplyBubble';

const activity = (tool: string | null) =>
  act(() =>
    useStreamingStore.getState().setTool({ companyId: 'c1', chatId: 'chat-1', messageId: 'user-1', tool }),
  );

describe('StreamingReplyBubble', () => {
  afterEach(() => useStreamingStore.getState().reset());

  it('shows "using {tool}…" under the typing indicator while a tool runs, and not after', () => {
    renderWithProviders(<StreamingReplyBubble chatId="chat-1" agentName="Agent" />);
    expect(screen.getByTestId('typing-indicator')).toBeInTheDocument();
    expect(screen.queryByTestId('agent-activity')).toBeNull();
    activity('Calculator');
    expect(screen.getByTestId('typing-indicator')).toBeInTheDocument();
    expect(screen.getByTestId('agent-activity')).toHaveTextContent('using Calculator…');
    activity(null);
    expect(screen.queryByTestId('agent-activity')).toBeNull();
  });

  it('the status is not part of the streamed text', () => {
    renderWithProviders(<StreamingReplyBubble chatId="chat-1" agentName="Agent" />);
    act(() =>
      useStreamingStore
        .getState()
        .applyDelta({ companyId: 'c1', chatId: 'chat-1', messageId: 'user-1', text: 'Counting.', offset: 0 }),
    );
    activity('Search');
    expect(screen.getByTestId('agent-activity')).toHaveTextContent('using Search…');
    expect(useStreamingStore.getState().replies['chat-1']?.text).toBe('Counting.');
  });
});
