import { Form, Switch } from 'antd';

/** The agent's opt-in to its replies' ratings: a `feedback` event POSTed to its webhook. */
export function SendRatingsField({ disabled = false }: { disabled?: boolean }) {
  return (
    <Form.Item
      label="Send ratings to the agent"
      name="sendFeedback"
      valuePropName="checked"
      extra={
        disabled
          ? undefined
          : 'When someone rates a reply, a feedback event (score and reason) is sent to the webhook.'
      }
    >
      <Switch disabled={disabled} />
    </Form.Item>
  );
}
