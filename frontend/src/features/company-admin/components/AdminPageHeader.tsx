import { Flex, Typography } from 'antd';
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
  return (
    <Flex justify="space-between" align="start" gap="middle" wrap style={{ marginBottom: 16 }}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
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
