import { MoreOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PlatformCompanyView } from '@contracts/platform-admin';
import { Alert, Button, Dropdown, Flex, Input, Table, Tag, Typography, type TableColumnType } from 'antd';
import { App } from '../../../hooks/appApi';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { AddCompanyDialog } from '../companies/AddCompanyDialog';
import { CompanyDetailsDialog } from '../companies/CompanyDetailsDialog';
import { CompanyMembersDialog } from '../companies/CompanyMembersDialog';
import { usePlatformCompaniesStore } from '../../../stores/platformCompaniesStore';
import { useCompanyActions } from '../companies/useCompanyActions';
import { useCompanyList } from '../companies/useCompanyList';

const SEARCH_DELAY_MS = 300;

/** The spec's 'Created (local date)'. */
export function localDate(iso: string): string {
  return new Date(iso).toLocaleDateString();
}

/**
 * Company Management: every company of the platform, searched and paged by the server; Add Company
 * (owned by an existing account), View Details, Manage Users, and Delete with everything it owns.
 */
export function PlatformCompanies() {
  const { notification, modal } = App.useApp();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [detailsOf, setDetailsOf] = useState<PlatformCompanyView | null>(null);
  const [membersOf, setMembersOf] = useState<PlatformCompanyView | null>(null);
  const onError = useCallback(
    (message: string) => notification.error({ title: 'Failed to load companies', description: message }),
    [notification],
  );
  const list = useCompanyList(search, onError);
  const { companies, nextCursor, loaded } = usePlatformCompaniesStore();
  const { remove, disableSso } = useCompanyActions();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  const confirmDelete = useCallback(
    (company: PlatformCompanyView) => {
      void modal.confirm({
        title: `Delete ${company.name}?`,
        content: `${company.name} is deleted for good with its ${company.userCount === 1 ? 'membership' : 'memberships'}, agents, chats, messages and invitations. Its members' open pages move to another company of theirs at once; their accounts stay.`,
        okText: 'Delete',
        okButtonProps: { danger: true },
        onOk: () => remove(company),
      });
    },
    [modal, remove],
  );

  const confirmDisableSso = useCallback(
    (company: PlatformCompanyView) => {
      void modal.confirm({
        title: `Turn off single sign-on for ${company.name}?`,
        content: `Its members stop signing in through the company's identity provider, and the sessions it made end now. Its owner can turn it on again.`,
        okText: 'Turn off SSO',
        okButtonProps: { danger: true },
        onOk: () => disableSso(company),
      });
    },
    [modal, disableSso],
  );

  const columns = useMemo<TableColumnType<PlatformCompanyView>[]>(
    () => [
      {
        key: 'name',
        title: 'Company Name',
        width: 280,
        render: (_, c) => <Typography.Text ellipsis>{c.name}</Typography.Text>,
      },
      { key: 'users', title: 'Users', width: 120, render: (_, c) => <Tag>{`${c.userCount} users`}</Tag> },
      {
        key: 'sso',
        title: 'SSO',
        width: 80,
        render: (_, c) => (c.usesSso ? <Tag color="blue">SSO</Tag> : null),
      },
      {
        key: 'created',
        title: 'Created',
        width: 140,
        render: (_, c) => <time dateTime={c.createdAt}>{localDate(c.createdAt)}</time>,
      },
      {
        key: 'actions',
        title: 'Actions',
        width: 90,
        render: (_, c) => (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'details', label: 'View Details' },
                { key: 'users', label: 'Manage Users' },
                ...(c.usesSso ? [{ key: 'sso', label: 'Turn off SSO' }] : []),
                { type: 'divider' },
                { key: 'delete', label: 'Delete', danger: true },
              ],
              onClick: ({ key }) => {
                if (key === 'details') setDetailsOf(c);
                if (key === 'users') setMembersOf(c);
                if (key === 'sso') confirmDisableSso(c);
                if (key === 'delete') confirmDelete(c);
              },
            }}
          >
            <Button type="text" icon={<MoreOutlined />} aria-label={`Actions for ${c.name}`} />
          </Dropdown>
        ),
      },
    ],
    [confirmDelete, confirmDisableSso],
  );

  return (
    <>
      <AdminPageHeader
        title="Company Management"
        description="Every company of this platform"
        extra={
          <>
            <Button
              icon={<ReloadOutlined />}
              aria-label="Refresh companies"
              loading={list.loading && loaded}
              onClick={() => void list.reload()}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              Add Company
            </Button>
          </>
        }
      />
      <Flex vertical gap="middle">
        <Input.Search
          allowClear
          placeholder="Search by company name..."
          aria-label="Search companies"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onSearch={(value) => setSearch(value.trim())}
          style={{ maxWidth: 360 }}
        />
        {list.error && !loaded && <Alert type="error" title={`Error loading companies: ${list.error}`} />}
        <Table<PlatformCompanyView>
          aria-label="Companies"
          columns={columns}
          dataSource={companies}
          rowKey={(c) => c.id}
          loading={list.loading}
          pagination={false}
          tableLayout="fixed"
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: list.loading ? ' ' : 'No companies found' }}
        />
        {nextCursor && (
          <Flex justify="end">
            <Button onClick={() => void list.loadMore()} loading={list.loadingMore}>
              Load more
            </Button>
          </Flex>
        )}
      </Flex>
      <AddCompanyDialog open={adding} onClose={() => setAdding(false)} />
      <CompanyDetailsDialog company={detailsOf} onClose={() => setDetailsOf(null)} />
      <CompanyMembersDialog company={membersOf} onClose={() => setMembersOf(null)} />
    </>
  );
}
