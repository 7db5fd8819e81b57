import { ApiOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Tooltip, theme } from 'antd';
import { Flex, Text, Title } from '../../../components/Plain';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAgentsStore } from '../../../stores/agentsStore';
import { useAppearance } from '../../../stores/appearanceStore';
import { BrandLogo } from '../../../components/BrandLogo';
import { lazyDialog } from '../../../components/lazyDialog';
import { useChatActions } from '../hooks/useChatActions';
import { AgentList } from './AgentList';
import { ChatList } from './ChatList';
import { DeferredChatSearch } from './DeferredChatSearch';
import { DeferredThemeMenu } from './DeferredThemeMenu';

const SettingsDialog = lazyDialog(() =>
  import('../../settings/components/SettingsDialog').then((m) => m.SettingsDialog),
);

function SectionTitle({ children, id }: { children: string; id: string }) {
  return (
    <Text id={id} type="secondary" strong style={{ fontSize: 12, letterSpacing: 0.5 }}>
      {children}
    </Text>
  );
}

/** The sidebar: logo, New Chat, AGENTS, CHATS (Active/Archived), settings, webhook tester and theme. */
export function SidebarContent({ onNavigate }: { onNavigate?: () => void }) {
  const { token } = theme.useToken();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const actions = useChatActions();
  const navigate = useNavigate();
  const hasAgent = useAgentsStore((s) => s.selectedAgentId !== null);
  const customLogo = useAppearance().logoUrl !== null;

  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex align="center" gap="small" style={{ padding: token.padding }}>
        {customLogo ? (
          // A saved logo usually shows the name itself: it is the heading, named by its alt text.
          <Title level={4} style={{ margin: 0, lineHeight: 0 }}>
            <BrandLogo size={40} alt="Switchboard" />
          </Title>
        ) : (
          <>
            <BrandLogo size={28} alt="" />
            <Title level={4} style={{ margin: 0 }}>
              Switchboard
            </Title>
          </>
        )}
      </Flex>
      <div style={{ padding: `0 ${token.padding}px` }}>
        <Button
          type="primary"
          block
          icon={<PlusOutlined />}
          disabled={!hasAgent}
          onClick={() => {
            void actions.newChat();
            onNavigate?.();
          }}
        >
          New Chat
        </Button>
      </div>
      <Flex vertical gap="small" style={{ padding: token.padding, flex: 1, overflow: 'auto', minHeight: 0 }}>
        <DeferredChatSearch onNavigate={onNavigate} />
        <section aria-labelledby="sidebar-agents">
          <Flex vertical gap="small">
            <SectionTitle id="sidebar-agents">AGENTS</SectionTitle>
            <AgentList onNavigate={onNavigate} />
          </Flex>
        </section>
        <section aria-labelledby="sidebar-chats" style={{ marginTop: token.marginXS }}>
          <SectionTitle id="sidebar-chats">CHATS</SectionTitle>
          <ChatList onNavigate={onNavigate} />
        </section>
      </Flex>
      <Flex
        justify="space-between"
        align="center"
        style={{ padding: token.paddingSM, borderTop: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Flex gap={4}>
          <Button
            type="text"
            icon={<SettingOutlined />}
            aria-label="Settings"
            onPointerEnter={SettingsDialog.preload}
            onFocus={SettingsDialog.preload}
            onClick={() => setSettingsOpen(true)}
          />
          <Tooltip title="Webhook tester">
            <Button
              type="text"
              icon={<ApiOutlined />}
              aria-label="Webhook tester"
              onClick={() => void navigate('/webhook-test')}
            />
          </Tooltip>
        </Flex>
        <DeferredThemeMenu />
      </Flex>
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Flex>
  );
}
