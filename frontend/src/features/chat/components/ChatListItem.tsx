import { MoreOutlined } from '@ant-design/icons';
import { Button, theme, type MenuProps } from 'antd';
import { Flex, Text } from '../../../components/Plain';
import type { ComponentType } from 'react';
import { DeferredTrigger } from '../../../components/DeferredTrigger';
import type { ChatView } from '../../../api/contracts';
import { useChatExport } from '../../search/hooks/useChatExport';
import { formatPreview, formatShortRelative } from '../../../lib/format';
import type { ChatRowMenuProps } from './ChatRowMenu';

// The row's menu (antd's Dropdown and Menu, entries, icons): loaded when an options button is first
// hovered, focused or used, then shared by every row.
let chatRowMenu: ComponentType<ChatRowMenuProps> | null = null;
const loadChatRowMenu = () => import('./ChatRowMenu').then((m) => (chatRowMenu = m.ChatRowMenu));

interface ChatListItemProps {
  chat: ChatView;
  active: boolean;
  onOpen: () => void;
  onArchive: () => void;
  onRestore: () => void;
  onDelete: () => void;
  onRename: () => void;
}

/** A chat row: title, short relative time, the 30-character preview, and its menu. */
export function ChatListItem({
  chat,
  active,
  onOpen,
  onArchive,
  onRestore,
  onDelete,
  onRename,
}: ChatListItemProps) {
  const { token } = theme.useToken();
  const exportChat = useChatExport();
  const onMenu: MenuProps['onClick'] = ({ key, domEvent }) => {
    domEvent.stopPropagation();
    if (key === 'rename') onRename();
    if (key === 'archive') onArchive();
    if (key === 'restore') onRestore();
    if (key === 'delete') onDelete();
    if (key === 'export-md') void exportChat(chat, 'md');
    if (key === 'export-json') void exportChat(chat, 'json');
    if (key === 'export-zip') void exportChat(chat, 'zip');
  };

  const optionsButton = <Button type="text" size="small" icon={<MoreOutlined />} aria-label="Chat options" />;

  return (
    <Flex
      component="li"
      align="center"
      data-testid="chat-row"
      style={{
        borderRadius: token.borderRadius,
        background: active ? token.controlItemBgActive : undefined,
      }}
    >
      <Button
        type="text"
        onClick={onOpen}
        aria-current={active ? 'true' : undefined}
        style={{
          flex: 1,
          minWidth: 0,
          height: 'auto',
          display: 'block',
          textAlign: 'left',
          padding: `${token.paddingXXS}px ${token.paddingXS}px`,
          background: 'transparent',
        }}
      >
        <Flex justify="space-between" gap="small">
          <Text strong ellipsis style={{ minWidth: 0 }}>
            {chat.title}
          </Text>
          <Text type="secondary" style={{ fontSize: token.fontSizeSM, flexShrink: 0 }}>
            {formatShortRelative(chat.lastMessageAt ?? chat.updatedAt)}
          </Text>
        </Flex>
        <Text type="secondary" ellipsis style={{ display: 'block', fontSize: token.fontSizeSM }}>
          {formatPreview(chat.lastMessage)}
        </Text>
      </Button>
      <DeferredTrigger<ChatRowMenuProps>
        load={loadChatRowMenu}
        loaded={chatRowMenu}
        placeholder={optionsButton}
        props={{ archived: chat.isArchived, onClick: onMenu, children: optionsButton }}
      />
    </Flex>
  );
}
