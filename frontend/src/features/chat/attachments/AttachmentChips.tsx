import { CloseOutlined, ExclamationCircleOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Button, Progress, theme } from 'antd';
import { Flex, Text } from '../../../components/Plain';
import { formatFileSize } from './attachmentRules';
import type { PendingAttachment } from './useAttachmentUploads';

interface AttachmentChipsProps {
  items: readonly PendingAttachment[];
  onRemove: (key: string) => void;
}

/** The files attached to the message being written: name, size, upload progress, a remove button. */
export function AttachmentChips({ items, onRemove }: AttachmentChipsProps) {
  const { token } = theme.useToken();
  if (!items.length) return null;
  return (
    <ul
      aria-label="Attached files"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: token.marginXS,
        listStyle: 'none',
        margin: 0,
        padding: 0,
      }}
    >
      {items.map((item) => (
        <li
          key={item.key}
          data-testid="attachment-chip"
          data-status={item.status}
          style={{
            border: `1px solid ${item.status === 'error' ? token.colorError : token.colorBorder}`,
            borderRadius: token.borderRadius,
            padding: `${token.paddingXXS}px ${token.paddingXS}px`,
            maxWidth: 260,
          }}
        >
          <Flex gap="small" align="center">
            {item.status === 'error' ? (
              <ExclamationCircleOutlined style={{ color: token.colorError }} aria-hidden />
            ) : (
              <PaperClipOutlined aria-hidden />
            )}
            <Flex vertical style={{ minWidth: 0, flex: 1 }}>
              <Text ellipsis title={item.name}>
                {item.name}
              </Text>
              <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {formatFileSize(item.size)}
                {item.status === 'uploading' && ` · uploading ${Math.round(item.progress * 100)}%`}
              </Text>
              {item.status === 'uploading' && (
                <Progress
                  percent={Math.round(item.progress * 100)}
                  size="small"
                  showInfo={false}
                  aria-label={`Uploading ${item.name}`}
                />
              )}
              {item.status === 'error' && (
                <Text type="danger" role="alert" style={{ fontSize: token.fontSizeSM }}>
                  {item.error}
                </Text>
              )}
            </Flex>
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              aria-label={`Remove ${item.name}`}
              title={`Remove ${item.name}`}
              onClick={() => onRemove(item.key)}
            />
          </Flex>
        </li>
      ))}
    </ul>
  );
}
