import { Flex, Layout, theme } from 'antd';
import type { ReactNode } from 'react';
import { BrandLogo } from '../../platform-admin/appearance/BrandLogo';
import './AuthCard.css';

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
            {/* Typography's look, drawn in AuthCard.css: Typography (with its Tooltip and TextArea for
                copy and edit) is about 19 KB gzip the sign-in page does not otherwise need. */}
            <h1 className="sb-auth-title">{title}</h1>
            {description && <span className="sb-auth-description">{description}</span>}
          </Flex>
          {children}
          {footer && <div style={{ marginTop: 16, textAlign: 'center' }}>{footer}</div>}
        </div>
      </Flex>
    </Layout>
  );
}
