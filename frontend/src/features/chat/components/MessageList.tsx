import { ArrowDownOutlined } from '@ant-design/icons';
import { Button, Spin, theme } from 'antd';
import { Flex } from '../../../components/Plain';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { MessageView } from '../../../api/contracts';
import type { ChatMessages } from '../../../stores/chatStore';
import { useMessageWindow } from '../hooks/useMessageWindow';
import { useSearchStore } from '../../../stores/searchStore';
import { useStreamingStore } from '../../../stores/streamingStore';
import { MessageBubble } from './MessageBubble';
import { StreamingReplyBubble } from './StreamingReplyBubble';

/**
 * The chat's latest exchange: the user's last message sent to the agent (voice turns never are) and the
 * reply after it, if any. Regenerate and Edit are offered on these only.
 */
export function latestExchange(items: MessageView[]): { messageId: string; replyId: string | null } | null {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const message = items[i];
    if (message.isVoiceMessage) continue;
    if (message.senderType === 'user') {
      const reply = items.slice(i + 1).find((m) => m.senderType === 'agent' && !m.isVoiceMessage);
      return { messageId: message.id, replyId: reply?.id ?? null };
    }
  }
  return null;
}

/** Virtuoso counts prepended items down from here, so scrolling up keeps the reader's place. */
const FIRST_INDEX = 1_000_000_000;

interface ListContext {
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** The reply being written shows after the newest message: not after a window's last one. */
  typing: boolean;
  chatId: string;
  agentName: string;
  agentAvatar?: string;
}

/** `highlight`: the message a search result opened, shown marked for a moment. */
function Column({ children, highlight }: { children: ReactNode; highlight?: boolean }) {
  const { token } = theme.useToken();
  return (
    <div
      data-highlighted={highlight || undefined}
      style={{
        maxWidth: 900,
        margin: '0 auto',
        padding: `${token.paddingXS}px ${token.padding}px`,
        borderRadius: token.borderRadiusLG,
        background: highlight ? token.colorWarningBg : undefined,
        transition: `background-color ${token.motionDurationSlow}`,
      }}
    >
      {children}
    </div>
  );
}

// Module-level components: Virtuoso remounts header and footer when their identity changes.
function ListHeader({ context }: { context?: ListContext }) {
  const { token } = theme.useToken();
  return (
    <Column>
      <Flex justify="center" style={{ minHeight: token.paddingLG }}>
        {context?.loadingOlder && <Spin size="small" aria-label="Loading older messages" />}
      </Flex>
    </Column>
  );
}

function ListFooter({ context }: { context?: ListContext }) {
  const { token } = theme.useToken();
  return (
    <Column>
      <div style={{ minHeight: token.paddingLG }}>
        {context?.loadingNewer && (
          <Flex justify="center">
            <Spin size="small" aria-label="Loading newer messages" />
          </Flex>
        )}
        {context?.typing && (
          <StreamingReplyBubble
            chatId={context.chatId}
            agentName={context.agentName}
            agentAvatar={context.agentAvatar}
          />
        )}
      </div>
    </Column>
  );
}

interface MessageListProps {
  chatId: string;
  messages: ChatMessages;
  typing: boolean;
  onLoadOlder: () => void;
  userName: string;
  userAvatar?: string;
  agentName: string;
  agentAvatar?: string;
  /** An archived chat: its replies are not rated. */
  readOnly?: boolean;
}

/**
 * The virtualised message list: only what is on screen is rendered, however long the chat. In window
 * mode (a search result opened an old message) reaching the bottom loads the newer page, and Jump to
 * latest goes back to the newest messages.
 */
export function MessageList({
  chatId,
  messages,
  typing,
  onLoadOlder,
  userName,
  userAvatar,
  agentName,
  agentAvatar,
  readOnly = false,
}: MessageListProps) {
  const { token } = theme.useToken();
  const virtuoso = useRef<VirtuosoHandle>(null);
  const atBottom = useRef(true);
  const items = messages.items;
  const lastIsMine = items.at(-1)?.senderType === 'user';
  const windowed = messages.hasNewer;
  const showTyping = typing && !windowed;
  const actions = useMessageWindow(chatId);
  const latest = readOnly || typing || windowed ? null : latestExchange(items);
  const [jumping, setJumping] = useState(false);

  // A search result opened in this chat: bring its message into view, then highlight it for a moment.
  const focus = useSearchStore((s) => (s.focus && s.focus.chatId === items[0]?.chatId ? s.focus : null));
  const focusIndex = focus ? items.findIndex((m) => m.id === focus.messageId) : -1;
  const [highlighted, setHighlighted] = useState<string | null>(null);
  // The list starts afresh at the message: a scroll asked for in the render that also prepended the
  // pages before it would be undone by Virtuoso keeping the reader's place. It starts there in the very
  // render that brings the message (a window replacing the run), not at the bottom first.
  const [jump, setJump] = useState<{ key: number; index: number; run: number } | null>(null);
  const run = messages.run;
  const focusJump = focus && focusIndex >= 0 ? { key: focus.nonce, index: focusIndex, run } : null;
  // A jump belongs to its run: another run (back to latest) starts at the bottom.
  const start = focusJump ?? (jump?.run === run ? jump : null);
  useEffect(() => {
    if (!focus || focusIndex < 0) return;
    setJump({ key: focus.nonce, index: focusIndex, run });
    setHighlighted(focus.messageId);
    useSearchStore.getState().setFocus(null);
  }, [focus, focusIndex, run]);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), 2500);
    return () => clearTimeout(timer);
  }, [highlighted]);

  // The typing indicator (then the streamed reply) is the list's footer: keep it in view while it grows,
  // when the reader is at the bottom.
  const streamed = useStreamingStore((s) => (showTyping ? (s.replies[chatId]?.text.length ?? 0) : 0));
  useEffect(() => {
    if (showTyping && atBottom.current) virtuoso.current?.scrollTo({ top: Number.MAX_SAFE_INTEGER });
  }, [showTyping, streamed]);

  const jumpToLatest = async () => {
    setJumping(true);
    try {
      await actions.jumpToLatest();
    } finally {
      setJumping(false);
    }
  };

  return (
    <div style={{ position: 'relative', height: '100%' }}>
      <Virtuoso<MessageView, ListContext>
        key={`${messages.run}:${start?.key ?? ''}`}
        ref={virtuoso}
        style={{ height: '100%' }}
        data={items}
        firstItemIndex={FIRST_INDEX - messages.prepended}
        initialTopMostItemIndex={
          start ? { index: start.index, align: 'center' } : Math.max(0, items.length - 1)
        }
        computeItemKey={(_, message) => message.id}
        startReached={() => {
          if (messages.hasMore) onLoadOlder();
        }}
        endReached={() => {
          if (messages.hasNewer) void actions.loadNewer();
        }}
        atBottomStateChange={(bottom) => {
          atBottom.current = bottom;
        }}
        // New messages follow when the reader is at the bottom, and always after the user's own; a
        // window's newer pages do not (the bottom would load the next one, and so on to the newest).
        followOutput={(bottom) => (!windowed && (bottom || lastIsMine) ? 'smooth' : false)}
        increaseViewportBy={{ top: 400, bottom: 200 }}
        context={{
          loadingOlder: messages.loadingOlder,
          loadingNewer: messages.loadingNewer,
          typing: showTyping,
          chatId,
          agentName,
          agentAvatar,
        }}
        itemContent={(_, message) => (
          <Column highlight={message.id === highlighted}>
            <MessageBubble
              message={message}
              userName={userName}
              userAvatar={userAvatar}
              agentName={agentName}
              agentAvatar={agentAvatar}
              rateable={!readOnly}
              canRegenerate={
                !!latest &&
                (message.id === latest.replyId || (message.id === latest.messageId && !latest.replyId))
              }
              canEdit={message.id === latest?.messageId}
              noReply={!!latest && message.id === latest.messageId && !latest.replyId}
            />
          </Column>
        )}
        components={{ Header: ListHeader, Footer: ListFooter }}
      />
      {windowed && (
        <Button
          shape="round"
          icon={<ArrowDownOutlined aria-hidden />}
          loading={jumping}
          onClick={() => void jumpToLatest()}
          style={{
            position: 'absolute',
            bottom: token.padding,
            left: '50%',
            transform: 'translateX(-50%)',
            boxShadow: token.boxShadowSecondary,
          }}
        >
          Jump to latest
        </Button>
      )}
    </div>
  );
}
