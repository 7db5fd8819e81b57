import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  MessageVersions,
  MessageVersionView,
  MessageView,
  ReplyRequested,
} from '../../../api/contracts';
import { chatView, messageView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useChatStore } from '../../../stores/chatStore';
import { useCompanyStore } from '../../../stores/companyStore';

const regenerate = vi.fn<(companyId: string, messageId: string) => Promise<ReplyRequested>>();
const editMessage =
  vi.fn<(companyId: string, messageId: string, content: string) => Promise<ReplyRequested>>();
const versions = vi.fn<(companyId: string, messageId: string) => Promise<MessageVersions>>();
vi.mock('../../../api/chatsApi', () => ({
  chatsApi: {
    regenerate: (c: string, id: string) => regenerate(c, id),
    editMessage: (c: string, id: string, content: string) => editMessage(c, id, content),
    versions: (c: string, id: string) => versions(c, id),
  },
}));

const { MessageTools, EditMessageForm } = await import('./MessageTools');

const version = (n: number, content: string, current = false): MessageVersionView => ({
  id: `v-${n}`,
  version: n,
  content,
  timestamp: '2026-01-01T00:00:00.000Z',
  feedback: null,
  feedbackReason: null,
  interrupted: null,
  interruptedReason: null,
  current,
});

/** The tools with the shown version kept as MessageBubble keeps it. */
function Harness({
  message,
  ...flags
}: {
  message: MessageView;
  canRegenerate?: boolean;
  noReply?: boolean;
}) {
  const [shown, setShown] = useState<MessageVersionView | null>(null);
  return (
    <>
      <p data-testid="content">{shown ? shown.content : message.content}</p>
      <MessageTools
        message={message}
        canRegenerate={flags.canRegenerate ?? false}
        canEdit={false}
        noReply={flags.noReply ?? false}
        onEdit={() => undefined}
        shown={shown}
        onShow={setShown}
      />
    </>
  );
}

describe('MessageTools', () => {
  const chat = chatView({ id: 'chat-1' });
  beforeEach(() => {
    useCompanyStore.setState({ currentCompanyId: 'c1' });
    useChatStore.getState().reset('c1');
  });
  afterEach(() => {
    regenerate.mockReset();
    editMessage.mockReset();
    versions.mockReset();
  });

  it('browses a reply’s versions: ‹ 2 / 2 › back to 1 / 2 and forth again', async () => {
    const reply = messageView({
      id: 'a-2',
      chatId: 'chat-1',
      senderType: 'agent',
      content: 'second',
      version: 2,
    });
    versions.mockResolvedValue({
      messageId: 'a-2',
      versions: [version(1, 'first'), version(2, 'second', true)],
    });
    renderWithProviders(<Harness message={reply} />);
    expect(screen.getByText('2 / 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next version' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(screen.getByText('1 / 2')).toBeInTheDocument());
    expect(versions).toHaveBeenCalledWith('c1', 'a-2');
    expect(screen.getByTestId('content')).toHaveTextContent('first');
    expect(screen.getByRole('button', { name: 'Previous version' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next version' }));
    await waitFor(() => expect(screen.getByText('2 / 2')).toBeInTheDocument());
    expect(screen.getByTestId('content')).toHaveTextContent('second');
  });

  it('offers no browser on a message with one version', () => {
    const reply = messageView({ id: 'a-1', senderType: 'agent', content: 'only' });
    renderWithProviders(<Harness message={reply} canRegenerate />);
    expect(screen.queryByTestId('version-browser')).toBeNull();
    expect(screen.getByRole('button', { name: 'Regenerate' })).toBeInTheDocument();
  });

  it('Regenerate asks again; the replaced reply leaves the chat and the indicator comes', async () => {
    const user = messageView({ id: 'u-1', seq: '1', chatId: 'chat-1', senderType: 'user', content: 'hi' });
    const reply = messageView({ id: 'a-1', seq: '2', chatId: 'chat-1', senderType: 'agent', content: 'old' });
    useChatStore.getState().addMessage(user);
    useChatStore.getState().addMessage(reply);
    regenerate.mockResolvedValue({
      message: user,
      replacedReplyId: 'a-1',
      chat: { ...chat, pendingReply: true },
    });
    renderWithProviders(<Harness message={reply} canRegenerate />);
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenCalledWith('c1', 'a-1');
    await waitFor(() =>
      expect(useChatStore.getState().messages['chat-1'].items.map((m) => m.id)).toEqual(['u-1']),
    );
    expect(useChatStore.getState().typing['chat-1']).toBe(true);
  });

  it('says a failed reply failed, with Regenerate on the message', async () => {
    const user = messageView({ id: 'u-1', chatId: 'chat-1', senderType: 'user', content: 'hi' });
    regenerate.mockResolvedValue({
      message: user,
      replacedReplyId: null,
      chat: { ...chat, pendingReply: true },
    });
    renderWithProviders(<Harness message={user} canRegenerate noReply />);
    expect(screen.getByText('The agent did not reply.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenCalledWith('c1', 'u-1');
  });
});

describe('EditMessageForm', () => {
  beforeEach(() => useCompanyStore.setState({ currentCompanyId: 'c1' }));
  afterEach(() => editMessage.mockReset());
  const message = messageView({ id: 'u-1', chatId: 'chat-1', senderType: 'user', content: 'frist' });

  it('Enter saves the new text', async () => {
    const onDone = vi.fn();
    editMessage.mockResolvedValue({
      message: { ...message, content: 'first', version: 2 },
      replacedReplyId: null,
      chat: chatView({ id: 'chat-1', pendingReply: true }),
    });
    renderWithProviders(<EditMessageForm message={message} onDone={onDone} />);
    const field = screen.getByRole('textbox', { name: 'Edit message' });
    await userEvent.clear(field);
    await userEvent.type(field, 'first{Enter}');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(editMessage).toHaveBeenCalledWith('c1', 'u-1', 'first');
  });

  it('Escape cancels without saving', async () => {
    const onDone = vi.fn();
    renderWithProviders(<EditMessageForm message={message} onDone={onDone} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Edit message' }), 'x{Escape}');
    expect(onDone).toHaveBeenCalled();
    expect(editMessage).not.toHaveBeenCalled();
  });
});
