import { Empty, Flex, Spin, Tabs } from 'antd';
import { useState } from 'react';
import type { ChatView } from '../../../api/contracts';
import { useChatStore } from '../chatStore';
import { openChat } from '../chatSync';
import { useChatActions } from '../hooks/useChatActions';
import { ChatListItem } from './ChatListItem';
import { lazyDialog } from '../../../components/lazyDialog';

const RenameChatDialog = lazyDialog(() => import('./RenameChatDialog').then((m) => m.RenameChatDialog));

/** The sidebar's CHATS, with Active and Archived tabs. */
export function ChatList({ onNavigate }: { onNavigate?: () => void }) {
  const actions = useChatActions();
  const activeChats = useChatStore((s) => s.activeChats);
  const archivedChats = useChatStore((s) => s.archivedChats);
  const archivedLoaded = useChatStore((s) => s.archivedLoaded);
  const activeChatId = useChatStore((s) => s.activeChatId);
  const [renaming, setRenaming] = useState<ChatView | null>(null);

  const list = (chats: ChatView[], empty: string) =>
    chats.length === 0 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} style={{ margin: '8px 0' }} />
    ) : (
      <Flex
        component="ul"
        vertical
        gap={2}
        role="list"
        className="sb-plain-list"
        aria-label={empty === 'No active chats' ? 'Active chats' : 'Archived chats'}
      >
        {chats.map((chat) => (
          <ChatListItem
            key={chat.id}
            chat={chat}
            active={chat.id === activeChatId}
            onOpen={() => {
              openChat(chat.id, chat.agentId);
              onNavigate?.();
            }}
            onArchive={() => void actions.archiveChat(chat.id)}
            onRestore={() => void actions.restoreChat(chat.id)}
            onDelete={() => void actions.deleteChat(chat.id)}
            onRename={() => setRenaming(chat)}
          />
        ))}
      </Flex>
    );

  return (
    <>
      <Tabs
        size="small"
        // The Archived list is fetched when its tab first opens, not with the screen.
        onChange={(key) => key === 'archived' && void actions.loadArchived()}
        items={[
          { key: 'active', label: 'Active', children: list(activeChats, 'No active chats') },
          {
            key: 'archived',
            label: 'Archived',
            children: archivedLoaded ? (
              list(archivedChats, 'No archived chats')
            ) : (
              <Spin
                size="small"
                aria-label="Loading archived chats"
                style={{ display: 'block', margin: 8 }}
              />
            ),
          },
        ]}
      />
      <RenameChatDialog
        open={renaming !== null}
        title={renaming?.title ?? ''}
        onRename={(title) => (renaming ? actions.renameChat(renaming.id, title) : Promise.resolve(false))}
        onClose={() => setRenaming(null)}
      />
    </>
  );
}
