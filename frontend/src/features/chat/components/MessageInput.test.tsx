import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { MessageInput } from './MessageInput';

describe('message input', () => {
  it('sends the trimmed text on Enter and clears the box', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    renderWithProviders(<MessageInput onSend={onSend} />);
    const box = await screen.findByPlaceholderText('Type a message...');
    await userEvent.type(box, '  Hello there  {Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Hello there');
    expect(box).toHaveValue('');
  });

  it('while a reply is pending, Stop reply takes the send button’s place', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    const onStop = vi.fn();
    renderWithProviders(<MessageInput onSend={onSend} disabled onStop={onStop} />);
    expect(screen.queryByRole('button', { name: 'Send message' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Stop reply' }));
    expect(onStop).toHaveBeenCalledOnce();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('starts a new line on Shift+Enter instead of sending', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    renderWithProviders(<MessageInput onSend={onSend} />);
    const box = await screen.findByPlaceholderText('Type a message...');
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('line one\nline two');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('does not send blank text; the send button stays disabled', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    renderWithProviders(<MessageInput onSend={onSend} />);
    const box = await screen.findByPlaceholderText('Type a message...');
    await userEvent.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
  });

  it('is disabled while the agent is typing', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    renderWithProviders(<MessageInput onSend={onSend} disabled />);
    const box = await screen.findByPlaceholderText('Type a message...');
    expect(box).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
  });

  it('puts the text back when sending failed', async () => {
    const onSend = vi.fn(() => Promise.resolve(false));
    renderWithProviders(<MessageInput onSend={onSend} />);
    const box = await screen.findByPlaceholderText('Type a message...');
    await userEvent.type(box, 'keep me{Enter}');
    expect(onSend).toHaveBeenCalledOnce();
    expect(box).toHaveValue('keep me');
  });
});
