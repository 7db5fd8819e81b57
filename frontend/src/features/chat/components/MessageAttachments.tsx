import { FileOutlined, FilePdfOutlined, FileTextOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { MessageAttachment } from '@contracts/chats';
import { Flex, Text } from '../../../components/Plain';
import { formatFileSize } from '../attachments/attachmentRules';

const THUMBNAIL_EDGE = 200;

function FileIcon({ mimeType }: { mimeType: string }) {
  if (mimeType === 'application/pdf') return <FilePdfOutlined aria-hidden />;
  if (mimeType.startsWith('text/') || mimeType === 'application/json')
    return <FileTextOutlined aria-hidden />;
  return <FileOutlined aria-hidden />;
}

/**
 * A message's files: images as thumbnails (a click opens the full image in a new tab), other files as a
 * card that downloads. Links are signed by the server (an `<img>` sends no token).
 */
export function MessageAttachments({ attachments }: { attachments: readonly MessageAttachment[] }) {
  const { token } = theme.useToken();
  return (
    <Flex gap="small" wrap style={{ marginTop: token.marginXXS }} data-testid="message-attachments">
      {attachments.map((file) =>
        file.kind === 'image' ? (
          <a
            key={file.id}
            href={file.url}
            target="_blank"
            rel="noopener noreferrer"
            title={`Open ${file.name} full size`}
            data-testid="attachment-image"
          >
            <img
              src={file.url}
              alt={file.name}
              width={file.width && file.height ? Math.min(THUMBNAIL_EDGE, file.width) : undefined}
              style={{
                display: 'block',
                maxWidth: THUMBNAIL_EDGE,
                maxHeight: THUMBNAIL_EDGE,
                borderRadius: token.borderRadius,
                border: `1px solid ${token.colorBorderSecondary}`,
                objectFit: 'cover',
              }}
            />
          </a>
        ) : (
          <a
            key={file.id}
            href={file.url}
            download={file.name}
            title={`Download ${file.name}`}
            data-testid="attachment-file"
            style={{
              display: 'flex',
              gap: token.marginXS,
              alignItems: 'center',
              padding: `${token.paddingXS}px ${token.paddingSM}px`,
              border: `1px solid ${token.colorBorder}`,
              borderRadius: token.borderRadius,
              background: token.colorBgContainer,
              color: token.colorText,
              maxWidth: 260,
            }}
          >
            <span style={{ fontSize: token.fontSizeXL }}>
              <FileIcon mimeType={file.mimeType} />
            </span>
            <Flex vertical style={{ minWidth: 0 }}>
              <Text ellipsis>{file.name}</Text>
              <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {formatFileSize(file.size)}
              </Text>
            </Flex>
          </a>
        ),
      )}
    </Flex>
  );
}
