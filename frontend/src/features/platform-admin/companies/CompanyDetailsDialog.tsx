import type { PlatformCompanyView } from '@contracts/platform-admin';
import { Alert, Descriptions, Modal, Spin } from 'antd';
import type { CompanyQuotaUsage } from '@contracts/company-quotas';
import dayjs from 'dayjs';
import { useState } from 'react';
import { formatMessageUse, formatStoredBytes } from '../../../lib/format';
import { QuotasForm } from './QuotasForm';
import { useCompanyDetails } from './useCompanyView';

/**
 * View Details: owner, created, how many members, agents and chats the company has, its file storage
 * and messages this month (used / limit) and its per-user daily message limit, with the limits to set.
 */
export function CompanyDetailsDialog({
  company,
  onClose,
}: {
  company: PlatformCompanyView | null;
  onClose: () => void;
}) {
  const { data, loading, error } = useCompanyDetails(company?.id ?? null);
  // The quotas as last saved here (the details are read once per opening).
  const [saved, setSaved] = useState<{ companyId: string; quotas: CompanyQuotaUsage } | null>(null);
  const quotas = data && saved?.companyId === data.id ? saved.quotas : data?.quotas;
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
            { key: 'storage', label: 'File storage', children: quotas && formatStoredBytes(quotas) },
            {
              key: 'month',
              label: 'Messages this month (UTC)',
              children:
                quotas && formatMessageUse(quotas.messagesThisMonth, quotas.messagesPerCompanyPerMonth),
            },
            {
              key: 'daily',
              label: 'Messages per user per day (UTC)',
              children: quotas && (quotas.messagesPerUserPerDay ?? 'No limit'),
            },
          ]}
        />
      )}
      {data && quotas && (
        <div style={{ marginTop: 16 }}>
          <QuotasForm
            key={data.id}
            companyId={data.id}
            quotas={quotas}
            onSaved={(next) => setSaved({ companyId: data.id, quotas: next })}
          />
        </div>
      )}
    </Modal>
  );
}
