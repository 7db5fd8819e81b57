import { DislikeFilled, DislikeOutlined, LikeFilled, LikeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Flex } from '../../../components/Plain';
import { useState } from 'react';
import type { MessageFeedback, MessageView } from '../../../api/contracts';
import { useVoiceCall } from '../hooks/useVoiceCall';

/** Like or dislike an agent's voice turn; choosing the same again takes the rating back. */
export function VoiceTurnFeedback({ message }: { message: MessageView }) {
  const { rate } = useVoiceCall();
  const [saving, setSaving] = useState(false);
  const choose = async (score: MessageFeedback) => {
    setSaving(true);
    await rate(message, message.feedback === score ? null : score);
    setSaving(false);
  };
  const liked = message.feedback === 'like';
  const disliked = message.feedback === 'dislike';
  return (
    <Flex gap={2} role="group" aria-label="Rate this response">
      <Button
        type="text"
        size="small"
        aria-label="Like this response"
        aria-pressed={liked}
        disabled={saving}
        icon={liked ? <LikeFilled /> : <LikeOutlined />}
        onClick={() => void choose('like')}
      />
      <Button
        type="text"
        size="small"
        aria-label="Dislike this response"
        aria-pressed={disliked}
        disabled={saving}
        icon={disliked ? <DislikeFilled /> : <DislikeOutlined />}
        onClick={() => void choose('dislike')}
      />
    </Flex>
  );
}
