import type { PlatformCompanyView } from '@contracts/platform-admin';
import { Alert, Descriptions, Modal, Spin } from 'antd';
import dayjs from 'dayjs';
import { useCompanyDetails } from './useCompanyView';

/** View Details: owner, created, and how many members, agents and chats the company has. */
export function CompanyDetailsDialog({
  company,
  onClose,
}: {
  company: PlatformCompanyView | null;
  onClose: () => void;
}) {
  const { data, loading, error } = useCompanyDetails(company?.id ?? null);
  return (
    <Modal
      open={!!company}
      title={company ? `Company details: ${company.name}` : 'Company details'}
      onCancel={onClose}
      footer={null}
    >
      {error && <Alert type="error" showIcon title={error} />}
      {loading && <Spin description="Loading..." />}
      {data && (
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            { key: 'name', label: 'Name', children: data.name },
            {
              key: 'owner',
              label: 'Owner',
              children: data.owner ? `${data.owner.name} (${data.owner.email})` : 'No owner',
            },
            {
              key: 'created',
              label: 'Created',
              children: dayjs(data.createdAt).format('MMM D, YYYY h:mm A'),
            },
            { key: 'members', label: 'Members', children: data.memberCount },
            { key: 'agents', label: 'Agents', children: data.agentCount },
            { key: 'chats', label: 'Chats', children: data.chatCount },
          ]}
        />
      )}
    </Modal>
  );
}
