import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MessageView } from '../../../api/contracts';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { MessageBubble } from './MessageBubble';

const message: MessageView = {
  id: 'm1',
  chatId: 'c1',
  senderId: 'u1',
  senderType: 'user',
  content: '',
  timestamp: '2026-01-01T10:00:00.000Z',
  isVoiceMessage: false,
  feedback: null,
  seq: '1',
  attachments: [
    {
      id: 'f1',
      name: 'chart.png',
      mimeType: 'image/png',
      size: 2048,
      kind: 'image',
      url: '/api/attachments/f1?expires=1&sig=a',
      width: 640,
      height: 480,
    },
    {
      id: 'f2',
      name: 'report.pdf',
      mimeType: 'application/pdf',
      size: 1536 * 1024,
      kind: 'file',
      url: '/api/attachments/f2?expires=1&sig=b',
    },
  ],
};

describe('attachments in the thread', () => {
  it('shows an image as a thumbnail that opens full size, and a file as a card that downloads', () => {
    renderWithProviders(<MessageBubble message={message} userName="Ada" agentName="Bot" />);
    const image = screen.getByRole('img', { name: 'chart.png' });
    expect(image).toHaveAttribute('src', '/api/attachments/f1?expires=1&sig=a');
    const open = screen.getByTestId('attachment-image');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('title', 'Open chart.png full size');

    const card = screen.getByTestId('attachment-file');
    expect(card).toHaveAttribute('href', '/api/attachments/f2?expires=1&sig=b');
    expect(card).toHaveAttribute('download', 'report.pdf');
    expect(card).toHaveTextContent('report.pdf');
    expect(card).toHaveTextContent('1.5 MB');
  });

  it('draws no empty bubble for a message of files alone, and the text above the files otherwise', () => {
    const { container, rerender } = renderWithProviders(
      <MessageBubble message={message} userName="Ada" agentName="Bot" />,
    );
    expect(container.querySelector('[style*="pre-wrap"]')).toBeNull();
    rerender(
      <MessageBubble message={{ ...message, content: 'Here you go' }} userName="Ada" agentName="Bot" />,
    );
    expect(screen.getByText('Here you go')).toBeInTheDocument();
    expect(screen.getByTestId('message-attachments')).toBeInTheDocument();
  });
});
