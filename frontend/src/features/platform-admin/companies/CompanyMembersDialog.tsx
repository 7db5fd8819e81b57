import type { PlatformCompanyMemberView, PlatformCompanyView } from '@contracts/platform-admin';
import { Alert, Flex, Modal, Table, Typography, type TableColumnType } from 'antd';
import dayjs from 'dayjs';
import { AvatarImage } from '../../../components/AvatarImage';
import { RoleBadge } from '../../../components/RoleBadge';
import { useCompanyMembers } from './useCompanyView';

const COLUMNS: TableColumnType<PlatformCompanyMemberView>[] = [
  {
    key: 'user',
    title: 'User',
    render: (_, m) => (
      <Flex align="center" gap="small" style={{ minWidth: 0 }}>
        <AvatarImage src={m.avatar} name={m.name} />
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis>
            {m.name}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis>
            {m.email}
          </Typography.Text>
        </Flex>
      </Flex>
    ),
  },
  { key: 'role', title: 'Role', width: 110, render: (_, m) => <RoleBadge role={m.role} /> },
  { key: 'joined', title: 'Joined', width: 130, render: (_, m) => dayjs(m.joinedAt).format('MMM D, YYYY') },
];

/** Manage Users: the company's members with their roles (roles are changed in the company's own admin). */
export function CompanyMembersDialog({
  company,
  onClose,
}: {
  company: PlatformCompanyView | null;
  onClose: () => void;
}) {
  const { data, loading, error } = useCompanyMembers(company?.id ?? null);
  return (
    <Modal
      open={!!company}
      title={company ? `Users of ${company.name}` : 'Users'}
      onCancel={onClose}
      footer={null}
      width={640}
    >
      {error && <Alert type="error" showIcon title={error} />}
      <Table<PlatformCompanyMemberView>
        aria-label={company ? `Users of ${company.name}` : 'Company users'}
        columns={COLUMNS}
        dataSource={data ?? []}
        rowKey={(m) => m.userId}
        loading={loading}
        pagination={false}
        size="small"
        locale={{ emptyText: loading ? ' ' : 'No users found' }}
      />
    </Modal>
  );
}
