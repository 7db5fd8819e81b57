import { ReloadOutlined } from '@ant-design/icons';
import type { PlatformAgentView } from '@contracts/platform-admin';
import { Alert, Button, Flex, Select, Table, Tag, Typography, type TableColumnType } from 'antd';
import { App } from '../../../hooks/appApi';
import { useCallback, useMemo, useState } from 'react';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { useAgentList } from '../agents/useAgentList';
import { type CompanyOption, useCompanyOptions } from '../companies/useCompanyOptions';
import { localDate } from './PlatformCompanies';
import { useKeyboardScrollable } from '../../../hooks/useKeyboardScrollable';

const dash = <Typography.Text type="secondary">—</Typography.Text>;

const COLUMNS: TableColumnType<PlatformAgentView>[] = [
  {
    key: 'name',
    title: 'Name',
    width: 200,
    render: (_, a) => (
      <Flex gap="small" align="center" style={{ minWidth: 0 }}>
        <Typography.Text ellipsis>{a.name}</Typography.Text>
        {a.isDefault && <Tag>Default</Tag>}
      </Flex>
    ),
  },
  {
    key: 'company',
    title: 'Company',
    width: 180,
    render: (_, a) => <Typography.Text ellipsis>{a.company.name}</Typography.Text>,
  },
  {
    key: 'owner',
    title: 'Owner',
    width: 220,
    render: (_, a) =>
      a.owner ? (
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text ellipsis>{a.owner.name}</Typography.Text>
          <Typography.Text type="secondary" ellipsis>
            {a.owner.email}
          </Typography.Text>
        </Flex>
      ) : (
        dash
      ),
  },
  {
    key: 'webhook',
    title: 'Webhook Host',
    width: 200,
    render: (_, a) => (a.webhookHost ? <Typography.Text code>{a.webhookHost}</Typography.Text> : dash),
  },
  {
    key: 'voice',
    title: 'Voice ID',
    width: 180,
    render: (_, a) => (a.voiceId ? <Typography.Text ellipsis>{a.voiceId}</Typography.Text> : dash),
  },
  {
    key: 'active',
    title: 'Active',
    width: 100,
    render: (_, a) => (a.isActive ? <Tag color="success">Active</Tag> : <Tag>Inactive</Tag>),
  },
  {
    key: 'created',
    title: 'Created',
    width: 130,
    render: (_, a) => <time dateTime={a.createdAt}>{localDate(a.createdAt)}</time>,
  },
];

/** Agents: every agent of every company, read-only (the webhook by its host only), filtered by company. */
export function PlatformAgents() {
  const { notification } = App.useApp();
  const [company, setCompany] = useState<CompanyOption | null>(null);
  const { options, find } = useCompanyOptions();
  const onError = useCallback(
    (message: string) => notification.error({ title: 'Error loading agents', description: message }),
    [notification],
  );
  const list = useAgentList(company?.value ?? null, onError);
  const tableWrapper = useKeyboardScrollable<HTMLDivElement>('Agents');
  const selectOptions = useMemo(
    () => (company && !options.some((o) => o.value === company.value) ? [company, ...options] : options),
    [company, options],
  );

  return (
    <>
      <AdminPageHeader
        title="Agents"
        description="Every agent of every company (read-only)"
        extra={
          <Button
            icon={<ReloadOutlined />}
            aria-label="Refresh agents"
            loading={list.loading && list.agents.length > 0}
            onClick={() => void list.reload()}
          />
        }
      />
      <Flex vertical gap="middle">
        <Select<string, CompanyOption>
          showSearch={{ filterOption: false, onSearch: find }}
          allowClear
          placeholder="All companies"
          aria-label="Filter by company"
          options={selectOptions}
          value={company?.value ?? null}
          onChange={(_value, option) => setCompany(option && !Array.isArray(option) ? option : null)}
          onClear={() => find('')}
          style={{ maxWidth: 360 }}
        />
        {list.error && <Alert type="error" title={`Error loading agents: ${list.error}`} />}
        <div ref={tableWrapper}>
          <Table<PlatformAgentView>
            aria-label="Agents"
            columns={COLUMNS}
            dataSource={list.agents}
            rowKey={(a) => a.id}
            loading={list.loading}
            pagination={false}
            tableLayout="fixed"
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: list.loading ? ' ' : 'No agents found' }}
          />
        </div>
        {list.hasMore && (
          <Flex justify="end">
            <Button onClick={() => void list.loadMore()} loading={list.loadingMore}>
              Load more
            </Button>
          </Flex>
        )}
      </Flex>
    </>
  );
}
