import { AudioOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { Flex, Text } from '../../../components/Plain';
import { lazy, Suspense, useEffect, useState, type PointerEvent } from 'react';
import type { MessageVersionView, MessageView } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { formatMessageTime } from '../../../lib/format';
import { VoiceTurnFeedback } from '../../voice/components/VoiceTurnFeedback';
import { MessageAttachments } from './MessageAttachments';

// The Markdown renderer and its highlighter are a chunk of their own, fetched with the first agent reply.
const AgentMarkdown = lazy(() => import('./AgentMarkdown').then((m) => ({ default: m.AgentMarkdown })));
// The rating control (antd's popover, form and input with it) is a chunk of its own too, shown after
// the thread's first paint.
const ReplyRating = lazy(() => import('./ReplyRating').then((m) => ({ default: m.ReplyRating })));
// Versions, Regenerate and Edit: a chunk of their own as well, fetched when a message offers one.
const MessageTools = lazy(() => import('./MessageTools').then((m) => ({ default: m.MessageTools })));
const EditMessageForm = lazy(() => import('./MessageTools').then((m) => ({ default: m.EditMessageForm })));

let markdownWanted = false;
/**
 * False until the screen holding the first agent reply has been painted (two frames): the thread's
 * first paint, with the message box, shows replies as plain text, and the Markdown renderer's code
 * loads and runs after it instead of delaying it. Replies shown later render Markdown at once.
 */
function useMarkdownWanted(): boolean {
  const [wanted, setWanted] = useState(markdownWanted);
  useEffect(() => {
    if (wanted) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        markdownWanted = true;
        setWanted(true);
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [wanted]);
  return wanted;
}

/**
 * The full date and time as the time's tooltip, written when the pointer first comes over it: the
 * browser's first date formatting loads its locale data (~10 ms here), which the thread's first render
 * would otherwise pay for a tooltip nobody has asked for yet.
 */
function showFullTime(event: PointerEvent<HTMLTimeElement>) {
  const time = event.currentTarget;
  if (!time.title) time.title = new Date(time.dateTime).toLocaleString();
}

/** Under a streamed reply cut short: why it ends where it does. */
const INTERRUPTED_NOTE: Record<NonNullable<MessageView['interrupted']>, string> = {
  stopped: 'Stopped',
  timeout: 'Incomplete: the agent stopped answering',
  error: 'Incomplete: the agent reported an error',
};

interface MessageBubbleProps {
  message: MessageView;
  /** A reply still streaming in (the text so far). */
  streaming?: boolean;
  userName: string;
  userAvatar?: string;
  agentName: string;
  agentAvatar?: string;
  /** Thumbs up and down under an agent's text reply (not in an archived chat: it is read-only). */
  rateable?: boolean;
  /** The chat's latest reply, no reply in flight: Regenerate is offered. */
  canRegenerate?: boolean;
  /** The user's latest message, no reply in flight: Edit is offered (on hover or focus). */
  canEdit?: boolean;
  /** The user's latest message got no reply (failed or stopped): said so, with Regenerate. */
  noReply?: boolean;
}

/** One message: the user's on the right as plain text (line breaks kept), the agent's on the left as Markdown. */
export function MessageBubble({
  message,
  streaming = false,
  userName,
  userAvatar,
  agentName,
  agentAvatar,
  rateable = false,
  canRegenerate = false,
  canEdit = false,
  noReply = false,
}: MessageBubbleProps) {
  const { token } = theme.useToken();
  const mine = message.senderType === 'user';
  const name = mine ? userName : agentName;
  const markdown = useMarkdownWanted();
  // An earlier version browsed to, for this version of the message only (a new one shows itself).
  const versionKey = `${message.id}:${message.version ?? 1}`;
  const [browsed, setBrowsed] = useState<{ key: string; version: MessageVersionView } | null>(null);
  const shown = browsed?.key === versionKey ? browsed.version : null;
  const [editing, setEditing] = useState(false);
  const content = shown ? shown.content : message.content;
  const hasTools = (message.version ?? 1) > 1 || canRegenerate || canEdit || noReply;
  const plainText = <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{content}</div>;
  return (
    <Flex
      gap="small"
      align="flex-start"
      style={{ flexDirection: mine ? 'row-reverse' : 'row' }}
      data-testid={mine ? 'user-message' : 'agent-message'}
      data-voice={message.isVoiceMessage ? 'true' : undefined}
      data-streaming={streaming ? 'true' : undefined}
      data-version={shown ? shown.version : undefined}
      aria-busy={streaming || undefined}
      className="sb-message-row"
    >
      {mine ? (
        <AvatarImage src={userAvatar} name={userName} fallback="initial" />
      ) : (
        <AvatarImage src={agentAvatar} name={agentName} />
      )}
      <Flex vertical align={mine ? 'flex-end' : 'flex-start'} style={{ maxWidth: '80%', minWidth: 0 }}>
        <Flex gap="small" align="baseline" style={{ flexDirection: mine ? 'row-reverse' : 'row' }}>
          <Text strong style={{ fontSize: token.fontSizeSM }}>
            {name}
          </Text>
          <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            <time dateTime={message.timestamp} onPointerEnter={showFullTime}>
              {formatMessageTime(message.timestamp)}
            </time>
          </Text>
          {message.isVoiceMessage && (
            <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              <AudioOutlined aria-label="Voice message" title="Said in a voice call" />
            </Text>
          )}
        </Flex>
        {editing && canEdit && (
          <Suspense fallback={null}>
            <EditMessageForm message={message} onDone={() => setEditing(false)} />
          </Suspense>
        )}
        {!(editing && canEdit) && (content !== '' || !message.attachments?.length) && (
          <div
            style={{
              marginTop: token.marginXXS,
              padding: `${token.paddingXS}px ${token.paddingSM}px`,
              borderRadius: token.borderRadiusLG,
              background: mine ? token.colorPrimary : token.colorFillSecondary,
              color: mine ? token.colorTextLightSolid : token.colorText,
              maxWidth: '100%',
            }}
          >
            {mine || !markdown ? (
              plainText
            ) : (
              <Suspense fallback={plainText}>
                <AgentMarkdown content={content} />
              </Suspense>
            )}
          </div>
        )}
        {!!message.attachments?.length && <MessageAttachments attachments={message.attachments} />}
        {message.isVoiceMessage && !mine && <VoiceTurnFeedback message={message} />}
        {/* After the thread's first paint, like the Markdown: antd's buttons would delay it. */}
        {rateable && markdown && !mine && !streaming && !message.isVoiceMessage && !shown && (
          <Suspense fallback={null}>
            <ReplyRating message={message} />
          </Suspense>
        )}
        {hasTools && markdown && !streaming && !(editing && canEdit) && (
          <Suspense fallback={null}>
            <MessageTools
              message={message}
              canRegenerate={canRegenerate}
              canEdit={canEdit}
              noReply={noReply}
              onEdit={() => setEditing(true)}
              shown={shown}
              onShow={(version) => setBrowsed(version ? { key: versionKey, version } : null)}
            />
          </Suspense>
        )}
        {message.interrupted && (
          <Text type="secondary" style={{ fontSize: token.fontSizeSM }} data-testid="reply-interrupted">
            {INTERRUPTED_NOTE[message.interrupted]}
            {message.interrupted === 'error' && message.interruptedReason
              ? `: ${message.interruptedReason}`
              : ''}
          </Text>
        )}
      </Flex>
    </Flex>
  );
}
