import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Layout, Typography, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { AvatarImage } from '../../../components/AvatarImage';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { findAgent, useAgentsStore } from '../../agents/agentsStore';
import { selectActiveChat, useChatStore } from '../chatStore';
import { useCurrentCompany } from '../../companies/companyStore';
import { useSessionStore } from '../../auth/sessionStore';
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
  const chat = useChatStore(selectActiveChat);
  const agent = useAgentsStore((s) => findAgent(s.agents, chat?.agentId ?? s.selectedAgentId));

  return (
    <Layout style={{ height: '100dvh' }}>
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
            <SidebarContent onNavigate={() => setDrawerOpen(false)} />
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
      <Layout style={{ minWidth: 0 }}>
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
          <Flex align="center" gap="small" style={{ flex: 1, minWidth: 0 }}>
            {agent && <AvatarImage src={agent.avatar} name={agent.name} />}
            <Flex vertical style={{ lineHeight: 1.3, minWidth: 0 }}>
              {agent && (
                <Typography.Text type="secondary" ellipsis data-testid="header-agent-name">
                  {agent.name}
                </Typography.Text>
              )}
              <Typography.Text strong ellipsis data-testid="header-chat-title">
                {chat?.title ?? 'New Chat'}
              </Typography.Text>
            </Flex>
          </Flex>
          <Flex vertical align="end" style={{ lineHeight: 1.3, minWidth: 0, maxWidth: '40%' }}>
            <Typography.Text strong ellipsis data-testid="header-user-name">
              {user?.name}
            </Typography.Text>
            <Typography.Text type="secondary" ellipsis data-testid="header-company-name">
              {company?.name}
            </Typography.Text>
          </Flex>
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ display: 'flex', flexDirection: 'column', minHeight: 0, overflow: 'auto' }}>
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
