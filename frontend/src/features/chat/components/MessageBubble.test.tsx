import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messageView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { MessageBubble } from './MessageBubble';

describe('MessageBubble', () => {
  it("gives the message's time its full date as a tooltip once the pointer comes over it", () => {
    const timestamp = '2024-05-01T10:01:00.000Z';
    renderWithProviders(
      <MessageBubble message={messageView({ timestamp })} userName="Ada Lovelace" agentName="Assistant" />,
    );
    const time = screen.getByTestId('user-message').querySelector('time')!;
    expect(time).toHaveAttribute('datetime', timestamp);
    // Not formatted on the first render: the first date formatting loads the browser's locale data.
    expect(time).not.toHaveAttribute('title');
    fireEvent.pointerEnter(time);
    expect(time).toHaveAttribute('title', new Date(timestamp).toLocaleString());
  });

  it("shows the user's initial when they have no picture, and the agent's placeholder picture", () => {
    renderWithProviders(
      <>
        <MessageBubble message={messageView()} userName="ada Lovelace" agentName="Assistant" />
        <MessageBubble
          message={messageView({ id: 'm-2', senderType: 'agent', content: 'Hi' })}
          userName="ada Lovelace"
          agentName="Assistant"
        />
      </>,
    );
    expect(screen.getByTestId('user-message')).toHaveTextContent('A');
    expect(screen.getByRole('img', { name: "Assistant's avatar" })).toHaveAttribute(
      'src',
      '/placeholder.svg',
    );
  });

  it("a reply cut short by the agent's error says so with the agent's message", () => {
    renderWithProviders(
      <MessageBubble
        message={messageView({
          id: 'm-3',
          senderType: 'agent',
          content: 'Half',
          interrupted: 'error',
          interruptedReason: 'Model overloaded',
        })}
        userName="Ada"
        agentName="Assistant"
      />,
    );
    expect(screen.getByTestId('reply-interrupted')).toHaveTextContent(
      'Incomplete: the agent reported an error: Model overloaded',
    );
  });
});
