import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Layout, Typography, theme } from 'antd';
import { useNavigate } from 'react-router-dom';
import { WebhookTester } from '../features/webhook-test/components/WebhookTester';

export function WebhookTestPage() {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  return (
    <Layout style={{ minHeight: '100dvh' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: token.marginSM,
          paddingInline: token.padding,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          aria-label="Back to chat"
          onClick={() => void navigate('/chat')}
        />
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
          Webhook Tester
        </Typography.Title>
      </Layout.Header>
      <Layout.Content style={{ padding: token.paddingLG }}>
        <Flex vertical style={{ maxWidth: 900, margin: '0 auto' }}>
          <WebhookTester />
        </Flex>
      </Layout.Content>
    </Layout>
  );
}
