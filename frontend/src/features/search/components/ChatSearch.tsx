import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Spin, Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useCompanyStore } from '../../../stores/companyStore';
import { useChatSearch } from '../hooks/useChatSearch';
import { useSearchStore } from '../../../stores/searchStore';
import { SearchResultItem } from './SearchResultItem';

/** Typing pauses this long before the search runs (Enter searches at once). */
const TYPING_PAUSE_MS = 300;

/** The sidebar's search box and, while a search is shown, its results (newest page appended). */
export function ChatSearch({ onNavigate }: { onNavigate?: () => void }) {
  const { token } = theme.useToken();
  const actions = useChatSearch();
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const search = useSearchStore();
  const [text, setText] = useState(search.query);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const shown = search.status !== 'idle' && search.companyId === companyId;

  useEffect(() => () => clearTimeout(timer.current), []);

  const runNow = (value: string) => {
    clearTimeout(timer.current);
    void actions.search(value);
  };

  return (
    <Flex vertical gap="small">
      <Input
        type="search"
        aria-label="Search chats"
        placeholder="Search chats"
        prefix={<SearchOutlined aria-hidden />}
        allowClear={{ clearIcon: <CloseCircleFilled aria-label="Clear search" /> }}
        maxLength={200}
        value={text}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          clearTimeout(timer.current);
          if (!value.trim()) actions.clear();
          else timer.current = setTimeout(() => void actions.search(value), TYPING_PAUSE_MS);
        }}
        onPressEnter={() => runNow(text)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            setText('');
            actions.clear();
          }
        }}
      />
      {shown && (
        <section aria-label="Search results" aria-busy={search.status === 'loading'}>
          {search.status === 'loading' && (
            <Flex justify="center" style={{ padding: token.paddingXS }}>
              <Spin size="small" aria-label="Searching" />
            </Flex>
          )}
          {search.status === 'error' && (
            <Typography.Text type="danger" role="alert">
              {search.error}
            </Typography.Text>
          )}
          {search.status === 'done' && search.results.length === 0 && (
            <Typography.Text type="secondary" role="status">
              No messages found
            </Typography.Text>
          )}
          {search.results.length > 0 && (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {search.results.map((result) => (
                <li key={result.messageId}>
                  <SearchResultItem
                    result={result}
                    onOpen={() => {
                      void actions.open(result);
                      onNavigate?.();
                    }}
                  />
                </li>
              ))}
            </ul>
          )}
          {search.nextCursor && search.status === 'done' && (
            <Button
              type="link"
              size="small"
              loading={search.loadingMore}
              onClick={() => void actions.loadMore()}
            >
              More results
            </Button>
          )}
        </section>
      )}
    </Flex>
  );
}
