import { Alert, Card, Descriptions, Spin } from 'antd';
import dayjs from 'dayjs';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';
import { usePagedList } from '../../../hooks/usePagedList';
import { useCompanyStore } from '../../../stores/companyStore';
import { adminLists } from '../companyAdminSync';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { formatMessageUse, formatStoredBytes } from '../../../lib/format';

/**
 * Company Details: name, created, owner, member and agent counts, file storage used / limit, the
 * month's messages (used / limit) and the viewer's messages today against the per-user daily limit.
 */
export function CompanyDetailsView() {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const { loading, error } = usePagedList(adminLists.details, companyId ? { companyId } : null);
  const details = useCompanyAdminStore((s) => s.details);

  return (
    <>
      <AdminPageHeader title="Company Details" />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      {!details && loading ? (
        <Spin description="Loading..." />
      ) : (
        details && (
          <Card style={{ maxWidth: 720 }}>
            <Descriptions
              column={1}
              bordered
              items={[
                { key: 'name', label: 'Name', children: details.name },
                {
                  key: 'created',
                  label: 'Created',
                  children: dayjs(details.createdAt).format('MMM D, YYYY h:mm A'),
                },
                { key: 'owner', label: 'Owner', children: details.owner?.name ?? 'Unnamed User' },
                { key: 'members', label: 'Members', children: details.memberCount },
                { key: 'agents', label: 'Agents', children: details.agentCount },
                {
                  key: 'storage',
                  label: 'File storage',
                  children: details.quotas && formatStoredBytes(details.quotas),
                },
                {
                  key: 'month',
                  label: 'Messages this month (UTC)',
                  children:
                    details.quotas &&
                    formatMessageUse(
                      details.quotas.messagesThisMonth,
                      details.quotas.messagesPerCompanyPerMonth,
                    ),
                },
                {
                  key: 'daily',
                  label: 'Your messages today (UTC), per-user daily limit',
                  children:
                    details.quotas &&
                    formatMessageUse(
                      details.quotas.yourMessagesToday ?? 0,
                      details.quotas.messagesPerUserPerDay,
                    ),
                },
              ]}
            />
          </Card>
        )
      )}
    </>
  );
}
