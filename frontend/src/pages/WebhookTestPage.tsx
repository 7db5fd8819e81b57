import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useNavigate } from 'react-router-dom';
import { PageShell } from '../components/PageShell';
import { WebhookTester } from '../features/webhook-test/components/WebhookTester';

export function WebhookTestPage() {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  return (
    <PageShell
      header={
        <>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label="Back to chat"
            onClick={() => void navigate('/chat')}
          />
          <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
            Webhook Tester
          </Typography.Title>
        </>
      }
      content={{ style: { padding: token.paddingLG } }}
    >
      <Flex vertical style={{ maxWidth: 900, margin: '0 auto' }}>
        <WebhookTester />
      </Flex>
    </PageShell>
  );
}
