import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Layout, Typography, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { useCurrentCompany } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { UserMenu } from '../../user-menu/components/UserMenu';
import { SidebarContent } from './SidebarContent';

/** Spec: the sidebar is 18rem wide. */
export const SIDEBAR_WIDTH = '18rem';

export function ChatShell({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const user = useSessionStore((s) => s.user);
  const company = useCurrentCompany();

  return (
    <Layout style={{ height: '100vh' }}>
      {isMobile ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={SIDEBAR_WIDTH}
          closable={false}
          title={null}
          styles={{ body: { padding: 0 } }}
        >
          <nav aria-label="Sidebar" style={{ height: '100%' }}>
            <SidebarContent />
          </nav>
        </Drawer>
      ) : (
        <Layout.Sider
          width={SIDEBAR_WIDTH}
          theme="light"
          style={{
            borderRight: `1px solid ${token.colorBorderSecondary}`,
            background: token.colorBgContainer,
          }}
        >
          <nav aria-label="Sidebar" style={{ height: '100%' }}>
            <SidebarContent />
          </nav>
        </Layout.Sider>
      )}
      <Layout>
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
          {isMobile && (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label="Open sidebar"
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <Typography.Text strong ellipsis style={{ flex: 1 }}>
            New Chat
          </Typography.Text>
          <Flex vertical align="end" style={{ lineHeight: 1.3, minWidth: 0 }}>
            <Typography.Text strong ellipsis data-testid="header-user-name">
              {user?.name}
            </Typography.Text>
            <Typography.Text type="secondary" ellipsis data-testid="header-company-name">
              {company?.name}
            </Typography.Text>
          </Flex>
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ overflow: 'auto' }}>
          <div style={{ maxWidth: 900, margin: '0 auto', height: '100%' }}>{children}</div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
