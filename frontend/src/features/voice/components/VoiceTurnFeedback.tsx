import { DislikeFilled, DislikeOutlined, LikeFilled, LikeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Flex } from '../../../components/Plain';
import { useState, type ReactNode } from 'react';
import type { MessageFeedback, MessageView } from '../../../api/contracts';
import { useVoiceCall } from '../hooks/useVoiceCall';

const CHOICES = [
  { score: 'like', label: 'Like this response', chosen: <LikeFilled />, notChosen: <LikeOutlined /> },
  {
    score: 'dislike',
    label: 'Dislike this response',
    chosen: <DislikeFilled />,
    notChosen: <DislikeOutlined />,
  },
] as const satisfies ReadonlyArray<{
  score: MessageFeedback;
  label: string;
  chosen: ReactNode;
  notChosen: ReactNode;
}>;

/** Like or dislike an agent's voice turn; choosing the same again takes the rating back. */
export function VoiceTurnFeedback({ message }: { message: MessageView }) {
  const { rate } = useVoiceCall();
  const [saving, setSaving] = useState(false);
  const choose = async (score: MessageFeedback) => {
    setSaving(true);
    await rate(message, message.feedback === score ? null : score);
    setSaving(false);
  };
  return (
    <Flex gap={2} role="group" aria-label="Rate this response">
      {CHOICES.map(({ score, label, chosen, notChosen }) => {
        const pressed = message.feedback === score;
        return (
          <Button
            key={score}
            type="text"
            size="small"
            aria-label={label}
            aria-pressed={pressed}
            disabled={saving}
            icon={pressed ? chosen : notChosen}
            onClick={() => void choose(score)}
          />
        );
      })}
    </Flex>
  );
}
