import { Form, InputNumber } from 'antd';

/** The server's rule and message (CreateAgentDto.callbackDeadlineMinutes). */
export const REPLY_DEADLINE_RULE = 'The reply deadline must be a whole number of minutes from 1 to 60';
export const DEFAULT_REPLY_DEADLINE_MINUTES = 10;

/**
 * How long an agent that answers 202 Accepted has to deliver its reply by callback. No min/max on the
 * input itself: antd would silently clamp a 90 to 60 on blur, where the rule's message says what is wrong.
 */
export function ReplyDeadlineField() {
  return (
    <Form.Item
      label="Reply deadline (minutes)"
      name="callbackDeadlineMinutes"
      extra="For agents that answer 202 Accepted and send their reply later: after this long the reply fails."
      rules={[
        { required: true, message: REPLY_DEADLINE_RULE },
        { type: 'integer', min: 1, max: 60, message: REPLY_DEADLINE_RULE },
      ]}
    >
      <InputNumber style={{ width: '8rem' }} />
    </Form.Item>
  );
}
