import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  InboxOutlined,
  MoreOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Flex, Typography, theme, type MenuProps } from 'antd';
import type { ChatView } from '../../../api/contracts';
import { useChatExport } from '../../search/hooks/useChatExport';
import { formatPreview, formatShortRelative } from '../format';

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
  const items: MenuProps['items'] = [
    { key: 'rename', label: 'Rename', icon: <EditOutlined /> },
    chat.isArchived
      ? { key: 'restore', label: 'Restore', icon: <UndoOutlined /> }
      : { key: 'archive', label: 'Archive', icon: <InboxOutlined /> },
    { key: 'export-md', label: 'Export as Markdown', icon: <DownloadOutlined /> },
    { key: 'export-json', label: 'Export as JSON', icon: <DownloadOutlined /> },
    { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true },
  ];
  const onMenu: MenuProps['onClick'] = ({ key, domEvent }) => {
    domEvent.stopPropagation();
    if (key === 'rename') onRename();
    if (key === 'archive') onArchive();
    if (key === 'restore') onRestore();
    if (key === 'delete') onDelete();
    if (key === 'export-md') void exportChat(chat, 'md');
    if (key === 'export-json') void exportChat(chat, 'json');
  };

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
          <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
            {chat.title}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, flexShrink: 0 }}>
            {formatShortRelative(chat.lastMessageAt ?? chat.updatedAt)}
          </Typography.Text>
        </Flex>
        <Typography.Text type="secondary" ellipsis style={{ display: 'block', fontSize: token.fontSizeSM }}>
          {formatPreview(chat.lastMessage)}
        </Typography.Text>
      </Button>
      <Dropdown trigger={['click']} menu={{ items, onClick: onMenu }} placement="bottomRight">
        <Button type="text" size="small" icon={<MoreOutlined />} aria-label="Chat options" />
      </Dropdown>
    </Flex>
  );
}
