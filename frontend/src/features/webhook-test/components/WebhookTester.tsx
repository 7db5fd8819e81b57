import { App, Button, Card, Flex, Form, Input, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import type { WebhookTestResult } from '../../../api/contracts';
import { webhookTestApi } from '../../../api/webhookTestApi';

/** Spec: the read-only test webhook address, a message, 'Test Webhook', the parsed output and the raw response. */
export function WebhookTester() {
  const { token } = theme.useToken();
  const { notification } = App.useApp();
  const [url, setUrl] = useState('');
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<WebhookTestResult | null>(null);

  useEffect(() => {
    let cancelled = false;
    webhookTestApi.address().then(
      (answer) => {
        if (!cancelled) setUrl(answer.url);
      },
      (error: unknown) => notification.error({ title: 'Error', description: getErrorMessage(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [notification]);

  const test = async () => {
    if (!message.trim()) {
      notification.error({
        title: 'Message Required',
        description: 'Please enter a message to send to the webhook',
      });
      return;
    }
    setSending(true);
    try {
      setResult(await webhookTestApi.send(message));
    } catch (error) {
      notification.error({ title: 'Error', description: getErrorMessage(error) });
    } finally {
      setSending(false);
    }
  };

  const monospace = {
    fontFamily: token.fontFamilyCode,
    whiteSpace: 'pre-wrap' as const,
    overflowWrap: 'anywhere' as const,
    margin: 0,
  };

  return (
    <Flex vertical gap="large">
      <Card>
        <Form layout="vertical" onFinish={() => void test()}>
          <Form.Item label="Webhook URL" htmlFor="webhook-test-url">
            <Input id="webhook-test-url" value={url} readOnly />
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
              <Typography.Title level={4} style={{ margin: 0 }}>
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
              <Typography.Title level={4} style={{ margin: 0 }}>
                Raw Response
              </Typography.Title>
            }
          >
            <pre style={monospace} data-testid="webhook-raw">
              {result.raw || '(empty)'}
            </pre>
          </Card>
        </>
      )}
    </Flex>
  );
}
