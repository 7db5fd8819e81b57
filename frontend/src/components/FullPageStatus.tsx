import { Flex, Layout, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A centred full-height message, used for app-level loading states. */
export function FullPageStatus({ text, spinning = true }: { text: ReactNode; spinning?: boolean }) {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex
        vertical
        align="center"
        justify="center"
        gap="middle"
        style={{ minHeight: '100vh' }}
        role="status"
      >
        {spinning && <Spin size="large" />}
        <Typography.Text type="secondary">{text}</Typography.Text>
      </Flex>
    </Layout>
  );
}
