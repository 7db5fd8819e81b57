import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  InboxOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import Dropdown from 'antd/es/dropdown';
import type { ReactElement } from 'react';

export interface ChatRowMenuProps {
  archived: boolean;
  onClick: MenuProps['onClick'];
  /** The trigger: the row's "Chat options" button. */
  children: ReactElement;
}

/**
 * A chat row's menu (antd's Dropdown and Menu, the entries and their icons), loaded when a row's
 * options button is first hovered, focused or used (ChatListItem): not needed to show the chat.
 */
export function ChatRowMenu({ archived, onClick, children }: ChatRowMenuProps) {
  const items: MenuProps['items'] = [
    { key: 'rename', label: 'Rename', icon: <EditOutlined /> },
    archived
      ? { key: 'restore', label: 'Restore', icon: <UndoOutlined /> }
      : { key: 'archive', label: 'Archive', icon: <InboxOutlined /> },
    { key: 'export-md', label: 'Export as Markdown', icon: <DownloadOutlined /> },
    { key: 'export-json', label: 'Export as JSON', icon: <DownloadOutlined /> },
    { key: 'export-zip', label: 'Export with files (ZIP)', icon: <DownloadOutlined /> },
    { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true },
  ];
  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
      {children}
    </Dropdown>
  );
}
