import { Button, Spin } from 'antd';
import { Flex } from '../../../components/Plain';
import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { ChatView } from '../../../api/contracts';
import { useChatStore } from '../../../stores/chatStore';
import { openChat } from '../chatSync';
import { useChatActions } from '../hooks/useChatActions';
import { ChatListItem } from './ChatListItem';
import { ChatTabs } from './ChatTabs';
import { lazyDialog } from '../../../components/lazyDialog';

// Shown for an empty list only (a new account, the Archived tab): not loaded with the chat screen.
const SimpleEmpty = lazy(() =>
  import('antd/es/empty').then(({ default: Empty }) => ({
    default: ({ description }: { description: string }) => (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} style={{ margin: '8px 0' }} />
    ),
  })),
);

const RenameChatDialog = lazyDialog(() => import('./RenameChatDialog').then((m) => m.RenameChatDialog));

/**
 * The end of a list with more pages: a "Load more chats" button that also loads by itself once scrolled
 * into view, and again after each page while it stays in view (a tall window shows a whole page). A
 * page that failed is not asked again by itself (its toast said so): the button is there.
 */
function LoadMoreChats({
  cursor,
  loading,
  onLoad,
}: {
  cursor: string;
  loading: boolean;
  onLoad: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const load = useEffectEvent(onLoad);
  useEffect(() => {
    if (visible) load();
  }, [visible, cursor]);
  return (
    <div ref={ref} style={{ padding: '4px 0' }}>
      <Button block size="small" type="text" loading={loading} onClick={onLoad}>
        Load more chats
      </Button>
    </div>
  );
}

/** The sidebar's CHATS, with Active and Archived tabs. */
export function ChatList({ onNavigate }: { onNavigate?: () => void }) {
  const actions = useChatActions();
  const activeChats = useChatStore((s) => s.activeChats);
  const archivedChats = useChatStore((s) => s.archivedChats);
  const archivedLoaded = useChatStore((s) => s.archivedLoaded);
  const activeCursor = useChatStore((s) => s.activeCursor);
  const archivedCursor = useChatStore((s) => s.archivedCursor);
  const loadingMoreActive = useChatStore((s) => s.loadingMoreActive);
  const loadingMoreArchived = useChatStore((s) => s.loadingMoreArchived);
  const activeChatId = useChatStore((s) => s.activeChatId);
  const [renaming, setRenaming] = useState<ChatView | null>(null);

  const list = (chats: ChatView[], empty: string, archived: boolean) => {
    const cursor = archived ? archivedCursor : activeCursor;
    const loadMore = cursor ? (
      <LoadMoreChats
        cursor={cursor}
        loading={archived ? loadingMoreArchived : loadingMoreActive}
        onLoad={() => void actions.loadMoreChats(archived)}
      />
    ) : null;
    return chats.length === 0 ? (
      <>
        <Suspense fallback={null}>
          <SimpleEmpty description={empty} />
        </Suspense>
        {loadMore}
      </>
    ) : (
      <>
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
        {loadMore}
      </>
    );
  };

  return (
    <>
      <ChatTabs
        // The Archived list is fetched when its tab first opens, not with the screen.
        onChange={(key) => key === 'archived' && void actions.loadArchived()}
        items={[
          { key: 'active', label: 'Active', children: list(activeChats, 'No active chats', false) },
          {
            key: 'archived',
            label: 'Archived',
            children: archivedLoaded ? (
              list(archivedChats, 'No archived chats', true)
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
