import { MenuOutlined } from '@ant-design/icons';
import { Button, Layout, theme, type DrawerProps } from 'antd';
import { Flex, Text } from '../../../components/Plain';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { AvatarImage } from '../../../components/AvatarImage';
import { lazyDialog } from '../../../components/lazyDialog';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { findAgent, useAgentsStore } from '../../../stores/agentsStore';
import { selectActiveChat, useChatStore } from '../../../stores/chatStore';
import { useCurrentCompany } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { UserMenu } from '../../user-menu/components/UserMenu';
import { MESSAGE_INPUT_ID } from './MessageInput';
import { SidebarContent } from './SidebarContent';

// The phone's sidebar drawer: its code loads when it first opens (or its button is hovered or focused).
const Drawer = lazyDialog<DrawerProps & { open: boolean }>(() =>
  import('antd/es/drawer').then((m) => m.default),
);

/** Spec: the sidebar is 18rem wide. */
export const SIDEBAR_WIDTH = '18rem';

const MAIN_ID = 'chat-main';

/** Past the sidebar's agents and chats, straight to the message box (or the thread when there is none). */
function skipToMessageBox(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  const input = document.getElementById(MESSAGE_INPUT_ID);
  if (input instanceof HTMLTextAreaElement && !input.disabled) input.focus();
  else document.getElementById(MAIN_ID)?.focus();
}

export function ChatShell({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const user = useSessionStore((s) => s.user);
  const company = useCurrentCompany();
  const chat = useChatStore(selectActiveChat);
  const agent = useAgentsStore((s) => findAgent(s.agents, chat?.agentId ?? s.selectedAgentId));

  const title = (
    // The page's level-one heading: the chat on screen.
    <h1 key="title" style={{ margin: 0, fontSize: 'inherit', minWidth: 0 }}>
      <Text strong ellipsis data-testid="header-chat-title" style={{ display: 'block' }}>
        {chat?.title ?? 'New Chat'}
      </Text>
    </h1>
  );
  const agentName = agent && (
    <Text
      key="agent"
      type="secondary"
      ellipsis
      data-testid="header-agent-name"
      style={isMobile ? { fontSize: token.fontSizeSM } : undefined}
    >
      {agent.name}
    </Text>
  );

  return (
    <Layout style={{ height: '100dvh' }}>
      <a href={`#${MAIN_ID}`} className="sb-skip-link" onClick={skipToMessageBox}>
        Skip to message box
      </a>
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
              onPointerEnter={Drawer.preload}
              onFocus={Drawer.preload}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <Flex align="center" gap="small" style={{ flex: 1, minWidth: 0 }}>
            {agent && (
              <span style={{ display: 'inline-flex', flexShrink: 0 }}>
                <AvatarImage src={agent.avatar} name={agent.name} />
              </span>
            )}
            {/* On a phone the title comes first and takes the room; name and company are in the user menu. */}
            <Flex vertical style={{ lineHeight: 1.3, minWidth: 0, flex: 1 }}>
              {isMobile ? [title, agentName] : [agentName, title]}
            </Flex>
          </Flex>
          {!isMobile && (
            <Flex vertical align="end" style={{ lineHeight: 1.3, minWidth: 0, maxWidth: '40%' }}>
              <Text strong ellipsis data-testid="header-user-name">
                {user?.name}
              </Text>
              <Text type="secondary" ellipsis data-testid="header-company-name">
                {company?.name}
              </Text>
            </Flex>
          )}
          <UserMenu />
        </Layout.Header>
        <Layout.Content
          id={MAIN_ID}
          tabIndex={-1}
          style={{
            display: 'flex',
            flexDirection: 'column',
            minHeight: 0,
            overflow: 'auto',
            outline: 'none',
          }}
        >
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
