import { Card, Flex, Layout, Typography } from 'antd';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card shared by the sign-in, registration and password screens. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
        <Card style={{ width: '100%', maxWidth: 420 }}>
          <Flex vertical align="center" gap={4} style={{ marginBottom: 24 }}>
            <img src="/logo.svg" alt="" width={40} height={40} />
            <Typography.Title level={2} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
            {description && (
              <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
                {description}
              </Typography.Text>
            )}
          </Flex>
          {children}
          {footer && <div style={{ marginTop: 16, textAlign: 'center' }}>{footer}</div>}
        </Card>
      </Flex>
    </Layout>
  );
}
