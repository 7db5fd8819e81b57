import { Flex, Typography, theme } from 'antd';
import { useVoiceStore } from '../../../stores/voiceStore';

/**
 * Above the input during a call into this chat: who is talking, and the agent's tentative response as a
 * live caption (shown as it forms, never saved: the final turn is what lands in the chat).
 */
export function VoiceCallStatus({ chatId }: { chatId: string | null }) {
  const { token } = theme.useToken();
  const onHere = useVoiceStore((s) => s.status === 'active' && s.chatId !== null && s.chatId === chatId);
  const speaking = useVoiceStore((s) => s.mode === 'speaking');
  const caption = useVoiceStore((s) => s.caption);
  if (!onHere) return null;
  return (
    <Flex vertical gap={token.marginXXS} style={{ marginBottom: token.marginXS }} aria-live="polite">
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {speaking ? 'Voice call: the agent is speaking' : 'Voice call: listening'}
      </Typography.Text>
      {caption && (
        <Typography.Text italic data-testid="voice-caption">
          {caption}
        </Typography.Text>
      )}
    </Flex>
  );
}
