import { theme } from 'antd';
import { Flex, Text } from '../../../components/Plain';
import { type MouseEvent, type ReactNode } from 'react';
import { AvatarImage } from '../../../components/AvatarImage';
import { PageShell } from '../../../components/PageShell';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { findAgent, useAgentsStore } from '../../../stores/agentsStore';
import { selectActiveChat, useChatStore } from '../../../stores/chatStore';
import { useCurrentCompany } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { UserMenu } from '../../user-menu/components/UserMenu';
import { MESSAGE_INPUT_ID } from './MessageInput';
import { SidebarContent } from './SidebarContent';

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
    <PageShell
      fitHeight
      before={
        <a href={`#${MAIN_ID}`} className="sb-skip-link" onClick={skipToMessageBox}>
          Skip to message box
        </a>
      }
      sidebar={{
        label: 'Sidebar',
        width: SIDEBAR_WIDTH,
        openLabel: 'Open sidebar',
        render: (onNavigate) => <SidebarContent onNavigate={onNavigate} />,
      }}
      header={
        <>
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
        </>
      }
      content={{
        id: MAIN_ID,
        tabIndex: -1,
        style: { display: 'flex', flexDirection: 'column', minHeight: 0, overflow: 'auto', outline: 'none' },
      }}
    >
      {children}
    </PageShell>
  );
}
