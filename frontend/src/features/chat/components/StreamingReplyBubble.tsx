import { theme } from 'antd';
import { useMemo } from 'react';
import type { MessageView } from '../../../api/contracts';
import { useFrameThrottled } from '../hooks/useFrameThrottled';
import { useStreamingStore } from '../../../stores/streamingStore';
import { MessageBubble } from './MessageBubble';
import { TypingIndicator } from './TypingIndicator';

interface StreamingReplyBubbleProps {
  chatId: string;
  agentName: string;
  agentAvatar?: string;
}

/**
 * While the agent answers: the typing indicator, which becomes the reply's bubble as soon as text
 * streams in, growing as it comes (rendered at most once a frame); under it, "using {tool}…" while an
 * n8n AI Agent runs a tool.
 */
export function StreamingReplyBubble({ chatId, agentName, agentAvatar }: StreamingReplyBubbleProps) {
  const reply = useStreamingStore((s) => s.replies[chatId]);
  const tool = useStreamingStore((s) => s.tools[chatId]);
  const { token } = theme.useToken();
  const text = useFrameThrottled(reply?.text ?? '');
  const messageId = reply?.messageId;
  const bubble = useMemo(() => {
    if (!messageId || !text) return null;
    const message: MessageView = {
      id: `streaming-${messageId}`,
      chatId,
      senderId: '',
      senderType: 'agent',
      content: text,
      timestamp: new Date().toISOString(),
      isVoiceMessage: false,
      feedback: null,
      seq: '',
    };
    return (
      <MessageBubble
        message={message}
        userName=""
        agentName={agentName}
        agentAvatar={agentAvatar}
        streaming
      />
    );
  }, [messageId, text, chatId, agentName, agentAvatar]);
  if (!tool) return bubble ?? <TypingIndicator />;
  return (
    <div>
      {bubble ?? <TypingIndicator />}
      {/* What the agent is doing (an n8n AI Agent's tool call): a live status, not the reply's text. */}
      <div
        role="status"
        data-testid="agent-activity"
        style={{ color: token.colorTextTertiary, fontSize: token.fontSizeSM, marginTop: token.marginXXS }}
      >
        using {tool}…
      </div>
    </div>
  );
}
