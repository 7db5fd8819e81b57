import type { SearchResult } from '@contracts/search';
import { FileImageOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { formatShortRelative } from '../../../lib/format';

/**
 * A found message: its chat's title, when it was said, the snippet with the matching words marked, and
 * the files whose names match (a message can be found by them alone).
 */
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
      {result.files.length > 0 && (
        <ul
          aria-label="Matching files"
          style={{ listStyle: 'none', margin: 0, padding: 0, fontSize: token.fontSizeSM }}
        >
          {result.files.map((file) => (
            <li key={file.id} data-testid="search-result-file">
              <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
                {file.kind === 'image' ? (
                  <FileImageOutlined aria-label="Image" />
                ) : (
                  <PaperClipOutlined aria-label="File" />
                )}{' '}
                <mark
                  style={{
                    background: token.colorWarningBgHover,
                    color: token.colorText,
                    padding: 0,
                    borderRadius: token.borderRadiusXS,
                  }}
                >
                  {file.name}
                </mark>
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Button>
  );
}
