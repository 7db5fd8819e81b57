import { Flex, Layout, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { BrandLogo } from '../../platform-admin/appearance/BrandLogo';

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card shared by the sign-in, registration and password screens. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex component="main" align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
        {/* antd's Card look, drawn here: the Card component brings Tabs (and their menus) to every
            signed-out page, about 20 KB gzip of the sign-in page's JavaScript. */}
        <div
          style={{
            boxSizing: 'border-box',
            width: '100%',
            maxWidth: 420,
            padding: token.paddingLG,
            color: token.colorText,
            background: token.colorBgContainer,
            border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
          }}
        >
          <Flex vertical align="center" gap={4} style={{ marginBottom: 24 }}>
            <BrandLogo size={40} alt="Switchboard" />
            <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
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
        </div>
      </Flex>
    </Layout>
  );
}
