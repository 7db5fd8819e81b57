import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useState } from 'react';
import { SettingsDialog } from '../../settings/components/SettingsDialog';
import { ThemeMenu } from '../../theme/components/ThemeMenu';

function SectionTitle({ children }: { children: string }) {
  return (
    <Typography.Text type="secondary" strong style={{ fontSize: 12, letterSpacing: 0.5 }}>
      {children}
    </Typography.Text>
  );
}

/** The sidebar frame: logo, New Chat, AGENTS and CHATS sections (filled in by the chat feature), footer. */
export function SidebarContent() {
  const { token } = theme.useToken();
  const [settingsOpen, setSettingsOpen] = useState(false);

  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex align="center" gap="small" style={{ padding: token.padding }}>
        <img src="/logo.svg" alt="" width={28} height={28} />
        <Typography.Title level={4} style={{ margin: 0 }}>
          Switchboard
        </Typography.Title>
      </Flex>
      <div style={{ padding: `0 ${token.padding}px` }}>
        <Button type="primary" block icon={<PlusOutlined />} disabled>
          New Chat
        </Button>
      </div>
      <Flex vertical gap="small" style={{ padding: token.padding, flex: 1, overflow: 'auto' }}>
        <SectionTitle>AGENTS</SectionTitle>
        <Typography.Text type="secondary">Agents will appear here.</Typography.Text>
        <SectionTitle>CHATS</SectionTitle>
        <Typography.Text type="secondary">Your chats will appear here.</Typography.Text>
      </Flex>
      <Flex
        justify="space-between"
        align="center"
        style={{ padding: token.paddingSM, borderTop: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Button
          type="text"
          icon={<SettingOutlined />}
          aria-label="Settings"
          onClick={() => setSettingsOpen(true)}
        />
        <ThemeMenu />
      </Flex>
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Flex>
  );
}
