import { Button, Card, Flex, Form, Input, Typography, theme } from 'antd';
import { useState } from 'react';
import { useWebhookTest } from '../hooks/useWebhookTest';

/** Spec: the read-only test webhook address, a message, 'Test Webhook', the parsed output and the raw response. */
export function WebhookTester() {
  const { token } = theme.useToken();
  const { url, result, sending, send } = useWebhookTest();
  const [message, setMessage] = useState('');

  const monospace = {
    fontFamily: token.fontFamilyCode,
    whiteSpace: 'pre-wrap' as const,
    overflowWrap: 'anywhere' as const,
    margin: 0,
  };

  return (
    <Flex vertical gap="large">
      <Card>
        <Form layout="vertical" onFinish={() => void send(message)}>
          <Form.Item label="Webhook URL" htmlFor="webhook-test-url">
            <Input id="webhook-test-url" value={url} readOnly variant="filled" aria-readonly="true" />
          </Form.Item>
          <Form.Item label="Message" htmlFor="webhook-test-message">
            <Input.TextArea
              id="webhook-test-message"
              rows={4}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              placeholder="Type a message to send to the webhook"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={sending}>
            Test Webhook
          </Button>
        </Form>
      </Card>
      {result && (
        <>
          <Card
            title={
              <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
                Output
              </Typography.Title>
            }
            extra={
              <Typography.Text type={result.ok ? 'success' : 'danger'}>
                Status {result.status}
              </Typography.Text>
            }
          >
            <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="webhook-output">
              {result.output}
            </div>
          </Card>
          <Card
            title={
              <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
                Raw Response
              </Typography.Title>
            }
          >
            <pre style={monospace} data-testid="webhook-raw">
              {prettyRaw(result.raw) || '(empty)'}
            </pre>
          </Card>
        </>
      )}
    </Flex>
  );
}

/** A JSON answer indented for reading; anything else as it came. */
export function prettyRaw(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
