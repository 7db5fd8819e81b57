import { MoreOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Dropdown, Flex, Typography } from 'antd';
import { App } from '../../../hooks/appApi';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { MemberView } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { useCompanyStore, useCurrentCompany } from '../../../stores/companyStore';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';
import { usePagedList } from '../../../hooks/usePagedList';
import { adminLists } from '../companyAdminSync';
import { useMemberActions } from '../hooks/useMemberActions';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { ChangeRoleDialog } from './ChangeRoleDialog';
import { InviteUserDialog } from './InviteUserDialog';
import { MemberProfileDrawer } from './MemberProfileDrawer';
import { RoleBadge } from '../../../components/RoleBadge';

const SEARCH_DELAY_MS = 300;

/**
 * The Company Users page: members, their roles, and the actions on them. The server searches (the
 * filter box: name or email) and pages them, oldest member first; Next past the loaded rows loads more.
 */
export function CompanyUsers() {
  const { notification, modal } = App.useApp();
  const onError = useCallback(
    (message: string) => notification.error({ title: 'Failed to load users', description: message }),
    [notification],
  );
  const [filterText, setFilterText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(filterText.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [filterText]);
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const list = usePagedList(adminLists.members, companyId ? { companyId, search } : null, onError);
  const members = useCompanyAdminStore((s) => s.members);
  const company = useCurrentCompany();
  const { removeMember } = useMemberActions();
  const [inviting, setInviting] = useState(false);
  const [profile, setProfile] = useState<MemberView | null>(null);
  const [roleOf, setRoleOf] = useState<MemberView | null>(null);

  const confirmRemove = useCallback(
    (member: MemberView) => {
      void modal.confirm({
        title: 'Remove member',
        content: `Remove ${member.name} (${member.email}) from this company? They lose access at once.`,
        okText: 'Remove',
        okButtonProps: { danger: true },
        onOk: () => removeMember(member),
      });
    },
    [modal, removeMember],
  );

  const columns = useMemo<DataTableColumn<MemberView>[]>(
    () => [
      {
        key: 'name',
        title: 'User',
        width: 280,
        value: (m) => `${m.name} ${m.email}`,
        render: (m) => (
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
      { key: 'role', title: 'Role', value: (m) => m.role, render: (m) => <RoleBadge role={m.role} /> },
      {
        key: 'joined',
        title: 'Joined',
        value: (m) => m.joinedAt,
        filterable: false,
        render: (m) => dayjs(m.joinedAt).format('MMM D, YYYY'),
      },
      {
        key: 'actions',
        title: 'Actions',
        width: 90,
        render: (m) => (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'profile', label: 'View Profile' },
                { key: 'role', label: 'Change Role' },
                { type: 'divider' },
                { key: 'remove', label: 'Remove', danger: true },
              ],
              onClick: ({ key }) => {
                if (key === 'profile') setProfile(m);
                if (key === 'role') setRoleOf(m);
                if (key === 'remove') confirmRemove(m);
              },
            }}
          >
            <Button type="text" icon={<MoreOutlined />} aria-label={`Actions for ${m.name}`} />
          </Dropdown>
        ),
      },
    ],
    [confirmRemove],
  );

  return (
    <>
      <AdminPageHeader
        title="Company Users"
        description="Manage users in your company"
        extra={
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)}>
            Invite User
          </Button>
        }
      />
      <DataTable<MemberView>
        label="Company users"
        columns={columns}
        data={members.items}
        rowKey={(m) => m.userId}
        loading={list.loading && (!members.loaded || members.search !== search)}
        server={{
          filter: filterText,
          onFilterChange: setFilterText,
          hasMore: members.nextCursor !== null,
          loadingMore: list.loadingMore,
          onLoadMore: () => void list.loadMore(),
        }}
      />
      <InviteUserDialog open={inviting} onClose={() => setInviting(false)} from="users" />
      <MemberProfileDrawer member={profile} onClose={() => setProfile(null)} />
      <ChangeRoleDialog
        member={roleOf}
        viewerIsOwner={company?.role === 'owner'}
        onClose={() => setRoleOf(null)}
      />
    </>
  );
}
