import type { SearchResult } from '@contracts/search';
import { Button, Flex, Typography, theme } from 'antd';
import { formatShortRelative } from '../../../lib/format';

/** A found message: its chat's title, when it was said, and the snippet with the matching words marked. */
export function SearchResultItem({ result, onOpen }: { result: SearchResult; onOpen: () => void }) {
  const { token } = theme.useToken();
  return (
    <Button
      type="text"
      onClick={onOpen}
      data-testid="search-result"
      style={{
        display: 'block',
        width: '100%',
        height: 'auto',
        textAlign: 'left',
        whiteSpace: 'normal',
        padding: `${token.paddingXXS}px ${token.paddingXS}px`,
      }}
    >
      <Flex justify="space-between" gap="small">
        <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
          {result.chatTitle}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, flexShrink: 0 }}>
          <time dateTime={result.timestamp} title={new Date(result.timestamp).toLocaleString()}>
            {formatShortRelative(result.timestamp)}
          </time>
        </Typography.Text>
      </Flex>
      <Typography.Paragraph
        type="secondary"
        ellipsis={{ rows: 2 }}
        style={{ margin: 0, fontSize: token.fontSizeSM }}
      >
        {result.isVoiceMessage && '(voice) '}
        {/* Plain-text runs from the server: the marks are ours, nothing is read as HTML. */}
        {result.segments.map((segment, index) =>
          segment.match ? (
            <mark
              key={index}
              style={{
                background: token.colorWarningBgHover,
                // Full text colour: the secondary grey on the mark's background is too faint.
                color: token.colorText,
                padding: 0,
                borderRadius: token.borderRadiusXS,
              }}
            >
              {segment.text}
            </mark>
          ) : (
            <span key={index}>{segment.text}</span>
          ),
        )}
      </Typography.Paragraph>
    </Button>
  );
}
