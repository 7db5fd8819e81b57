import { Button, Spin, theme } from 'antd';
import { Flex } from '../../../components/Plain';
import { lazy, Suspense } from 'react';
import { findAgent, useAgentsStore } from '../../../stores/agentsStore';
import { selectActiveChat, useChatStore } from '../../../stores/chatStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { useChatActions } from '../hooks/useChatActions';
import { useStopReply } from '../hooks/useStopReply';
import { VoiceCallButton } from '../../voice/components/VoiceCallButton';
import { VoiceCallStatus } from '../../voice/components/VoiceCallStatus';
import { useCallAwareInput } from '../../voice/hooks/useCallAwareInput';
import { MessageInput } from './MessageInput';
import { FIRST_MESSAGE, useAttachmentUploads } from '../attachments/useAttachmentUploads';
import type { DragEvent } from 'react';
import { MessageList } from './MessageList';
import { NoAgentView } from './NoAgentView';
import { WelcomeView } from './WelcomeView';

// Only an archived chat shows it: not loaded with the chat screen.
const Alert = lazy(() => import('antd/es/alert'));

/** The central column: nothing selected, the welcome view, or the conversation with its input. */
export function ChatView() {
  const { token } = theme.useToken();
  const actions = useChatActions();
  const stopReply = useStopReply();
  const user = useSessionStore((s) => s.user);
  const agents = useAgentsStore((s) => s.agents);
  const agentsLoaded = useAgentsStore((s) => s.loaded);
  const selectedAgentId = useAgentsStore((s) => s.selectedAgentId);
  const chat = useChatStore(selectActiveChat);
  const messages = useChatStore((s) => (chat ? s.messages[chat.id] : undefined));
  const typing = useChatStore((s) => (chat ? !!s.typing[chat.id] : false));
  const agent = findAgent(agents, chat?.agentId ?? selectedAgentId);
  // During a voice call into this chat, typed text goes into the call instead of the webhook.
  const input = useCallAwareInput(chat?.id ?? null, actions.sendMessage);
  // No chat yet (the welcome view): files for the first message, which creates the chat.
  const files = useAttachmentUploads(chat ? (chat.isArchived ? null : chat.id) : FIRST_MESSAGE);
  // Text goes through the call-aware path (into a voice call when one is on); a message with files is
  // always a message.
  const onSend = (text: string, attachmentIds?: string[]) =>
    attachmentIds?.length ? actions.sendMessage(text, attachmentIds) : input.onSend(text);
  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const dropTarget = {
    onDragOver: (event: DragEvent) => {
      if (!hasFiles(event) || chat?.isArchived) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDrop: (event: DragEvent) => {
      if (!hasFiles(event) || chat?.isArchived) return;
      event.preventDefault();
      files.add(Array.from(event.dataTransfer.files));
    },
  };

  if (!agentsLoaded) return <Spin style={{ margin: 'auto' }} aria-label="Loading" />;
  if (!agent) return <NoAgentView />;
  if (!chat)
    return (
      <div style={{ height: '100%' }} data-testid="chat-drop-zone" {...dropTarget}>
        <WelcomeView agent={agent} chatId={null} onSend={onSend} attachments={files} />
      </div>
    );
  if (!messages?.loaded) return <Spin style={{ margin: 'auto' }} aria-label="Loading messages" />;
  if (messages.items.length === 0 && !typing)
    return (
      <WelcomeView
        agent={agent}
        chatId={chat.id}
        onSend={onSend}
        onTyping={input.onTyping}
        attachments={chat.isArchived ? undefined : files}
      />
    );

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="chat-drop-zone" {...dropTarget}>
      <div style={{ flex: 1, minHeight: 0 }}>
        <MessageList
          key={chat.id}
          chatId={chat.id}
          messages={messages}
          typing={typing}
          onLoadOlder={() => void actions.loadOlder(chat.id)}
          userName={user?.name || 'You'}
          userAvatar={user?.avatar}
          agentName={agent.name}
          agentAvatar={agent.avatar}
          readOnly={chat.isArchived}
        />
      </div>
      <div style={{ width: '100%', maxWidth: 900, margin: '0 auto', padding: token.padding }}>
        {chat.isArchived ? (
          <Suspense fallback={null}>
            <Alert
              type="info"
              showIcon
              title="This chat is archived. Restore it to send messages."
              action={
                <Button size="small" onClick={() => void actions.restoreChat(chat.id)}>
                  Restore
                </Button>
              }
            />
          </Suspense>
        ) : (
          <>
            <VoiceCallStatus chatId={chat.id} />
            <MessageInput
              onSend={onSend}
              attachments={files}
              onTyping={input.onTyping}
              disabled={typing && !input.inCall}
              onStop={typing && !input.inCall ? () => void stopReply(chat.id) : undefined}
              addon={<VoiceCallButton agent={agent} chatId={chat.id} />}
            />
          </>
        )}
      </div>
    </Flex>
  );
}
