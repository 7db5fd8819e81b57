import { DislikeFilled, DislikeOutlined, LikeFilled, LikeOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popover } from 'antd';
import { useId, useRef, useState } from 'react';
import { FEEDBACK_REASON_MAX, type MessageFeedback, type MessageView } from '../../../api/contracts';
import { Flex } from '../../../components/Plain';
import { useRateReply } from '../hooks/useRateReply';

export const REASON_TITLE = 'What was wrong with this response?';

/**
 * Thumbs up and down under an agent's reply; choosing the one already chosen takes the rating back. A
 * thumbs down first asks for an optional short reason (a small dialog: Enter or Send rates, Escape
 * closes without rating).
 */
export function ReplyRating({ message }: { message: MessageView }) {
  const rate = useRateReply();
  const [saving, setSaving] = useState(false);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const titleId = useId();
  const fieldId = useId();
  const dislikeButton = useRef<HTMLButtonElement>(null);
  /** Closes the reason dialog; focus goes back to the button that opened it. */
  const closeDialog = () => {
    setAsking(false);
    dislikeButton.current?.focus();
  };

  const save = async (score: MessageFeedback | null, why?: string) => {
    setSaving(true);
    const saved = await rate(message, score, why);
    setSaving(false);
    if (saved) {
      setAsking(false);
      setReason('');
    }
  };
  const liked = message.feedback === 'like';
  const disliked = message.feedback === 'dislike';

  const reasonForm = (
    <div
      role="dialog"
      aria-labelledby={titleId}
      style={{ width: 280 }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') closeDialog();
      }}
    >
      <div id={titleId} style={{ fontWeight: 600, marginBottom: 8 }}>
        {REASON_TITLE}
      </div>
      <Form layout="vertical" onFinish={() => void save('dislike', reason.trim())}>
        <Form.Item label="Reason (optional)" htmlFor={fieldId} style={{ marginBottom: 8 }}>
          <Input
            id={fieldId}
            autoFocus
            value={reason}
            maxLength={FEEDBACK_REASON_MAX}
            onChange={(event) => setReason(event.target.value)}
          />
        </Form.Item>
        <Flex gap="small" justify="flex-end">
          <Button size="small" onClick={closeDialog}>
            Cancel
          </Button>
          <Button size="small" type="primary" htmlType="submit" loading={saving}>
            Send
          </Button>
        </Flex>
      </Form>
    </div>
  );

  return (
    <Flex gap={2} role="group" aria-label="Rate this response" data-testid="reply-rating">
      <Button
        type="text"
        size="small"
        aria-label="Like this response"
        aria-pressed={liked}
        disabled={saving}
        icon={liked ? <LikeFilled /> : <LikeOutlined />}
        onClick={() => void save(liked ? null : 'like')}
      />
      <Popover
        open={asking}
        onOpenChange={(open) => {
          if (!open) setAsking(false);
        }}
        trigger="click"
        placement="bottomLeft"
        content={reasonForm}
        destroyOnHidden
      >
        <Button
          ref={dislikeButton}
          type="text"
          size="small"
          aria-label="Dislike this response"
          aria-pressed={disliked}
          aria-haspopup={disliked ? undefined : 'dialog'}
          disabled={saving}
          icon={disliked ? <DislikeFilled /> : <DislikeOutlined />}
          onClick={() => {
            if (disliked) void save(null);
            else setAsking(true);
          }}
        />
      </Popover>
    </Flex>
  );
}
