import { Flex, Spin, theme } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { MessageView } from '../../../api/contracts';
import type { ChatMessages } from '../chatStore';
import { useSearchStore } from '../../search/searchStore';
import { useStreamingStore } from '../streamingStore';
import { MessageBubble } from './MessageBubble';
import { StreamingReplyBubble } from './StreamingReplyBubble';

/** Virtuoso counts prepended items down from here, so scrolling up keeps the reader's place. */
const FIRST_INDEX = 1_000_000_000;

interface ListContext {
  loadingOlder: boolean;
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
}

/** The virtualised message list: only what is on screen is rendered, however long the chat. */
export function MessageList({
  chatId,
  messages,
  typing,
  onLoadOlder,
  userName,
  userAvatar,
  agentName,
  agentAvatar,
}: MessageListProps) {
  const virtuoso = useRef<VirtuosoHandle>(null);
  const atBottom = useRef(true);
  const items = messages.items;
  const lastIsMine = items.at(-1)?.senderType === 'user';

  // A search result opened in this chat: bring its message into view, then highlight it for a moment.
  const focus = useSearchStore((s) => (s.focus && s.focus.chatId === items[0]?.chatId ? s.focus : null));
  const focusIndex = focus ? items.findIndex((m) => m.id === focus.messageId) : -1;
  const [highlighted, setHighlighted] = useState<string | null>(null);
  // The list starts afresh at the message: a scroll asked for in the render that also prepended the
  // pages before it would be undone by Virtuoso keeping the reader's place.
  const [jump, setJump] = useState<{ key: number; index: number } | null>(null);
  useEffect(() => {
    if (!focus || focusIndex < 0) return;
    setJump({ key: focus.nonce, index: focusIndex });
    setHighlighted(focus.messageId);
    useSearchStore.getState().setFocus(null);
  }, [focus, focusIndex]);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), 2500);
    return () => clearTimeout(timer);
  }, [highlighted]);

  // The typing indicator (then the streamed reply) is the list's footer: keep it in view while it grows,
  // when the reader is at the bottom.
  const streamed = useStreamingStore((s) => (typing ? (s.replies[chatId]?.text.length ?? 0) : 0));
  useEffect(() => {
    if (typing && atBottom.current) virtuoso.current?.scrollTo({ top: Number.MAX_SAFE_INTEGER });
  }, [typing, streamed]);

  return (
    <Virtuoso<MessageView, ListContext>
      key={jump?.key}
      ref={virtuoso}
      style={{ height: '100%' }}
      data={items}
      firstItemIndex={FIRST_INDEX - messages.prepended}
      initialTopMostItemIndex={jump ? { index: jump.index, align: 'center' } : Math.max(0, items.length - 1)}
      computeItemKey={(_, message) => message.id}
      startReached={() => {
        if (messages.hasMore) onLoadOlder();
      }}
      atBottomStateChange={(bottom) => {
        atBottom.current = bottom;
      }}
      // New messages follow when the reader is at the bottom, and always after the user's own.
      followOutput={(bottom) => (bottom || lastIsMine ? 'smooth' : false)}
      increaseViewportBy={{ top: 400, bottom: 200 }}
      context={{ loadingOlder: messages.loadingOlder, typing, chatId, agentName, agentAvatar }}
      itemContent={(_, message) => (
        <Column highlight={message.id === highlighted}>
          <MessageBubble
            message={message}
            userName={userName}
            userAvatar={userAvatar}
            agentName={agentName}
            agentAvatar={agentAvatar}
          />
        </Column>
      )}
      components={{ Header: ListHeader, Footer: ListFooter }}
    />
  );
}
