import { Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

/** The title of an admin page, its description, and its buttons on the right. */
export function AdminPageHeader({
  title,
  description,
  extra,
}: {
  title: string;
  description?: string;
  extra?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <Flex justify="space-between" align="start" gap="middle" wrap style={{ marginBottom: 16 }}>
      <div>
        {/* The page's level-one heading, at the size of the design's section titles. */}
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
          {title}
        </Typography.Title>
        {description && <Typography.Text type="secondary">{description}</Typography.Text>}
      </div>
      {extra && (
        <Flex gap="small" wrap>
          {extra}
        </Flex>
      )}
    </Flex>
  );
}
