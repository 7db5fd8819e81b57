import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Layout, Spin, theme } from 'antd';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router-dom';
// The one text of this help page, also read in the repository: docs/webhook-signatures.md.
import guide from '../../../docs/webhook-signatures.md?raw';

const AgentMarkdown = lazy(() =>
  import('../features/chat/components/AgentMarkdown').then((m) => ({ default: m.AgentMarkdown })),
);

/** How a webhook verifies Switchboard's signature: linked from an agent's 'Sign webhook requests'. */
export function WebhookSignaturesPage() {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  return (
    <Layout style={{ minHeight: '100dvh' }}>
      <main style={{ width: '100%', maxWidth: 860, margin: '0 auto', padding: token.paddingLG }}>
        <Button
          type="link"
          icon={<ArrowLeftOutlined />}
          onClick={() => void navigate(-1)}
          style={{ paddingInline: 0, marginBottom: token.marginSM }}
        >
          Back
        </Button>
        <Card>
          <Suspense fallback={<Spin aria-label="Loading" />}>
            <AgentMarkdown content={guide} />
          </Suspense>
        </Card>
      </main>
    </Layout>
  );
}
