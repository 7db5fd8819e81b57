import { MoreOutlined, ReloadOutlined, UserAddOutlined } from '@ant-design/icons';
import type { PlatformUserView } from '@contracts/platform-admin';
import { Alert, Button, Dropdown, Flex, Input, Table, Tag, Typography, type TableColumnType } from 'antd';
import { App } from '../../../hooks/appApi';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AvatarImage } from '../../../components/AvatarImage';
import { useSessionStore } from '../../../stores/sessionStore';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { InvitePlatformUserDialog } from '../users/InvitePlatformUserDialog';
import { useUserActions } from '../users/useUserActions';
import { useUserList } from '../users/useUserList';
import { usePlatformUsersStore } from '../../../stores/platformUsersStore';

/** The spec's 'MMM d, yyyy h:mm a' in dayjs' tokens. */
export const LAST_LOGIN_FORMAT = 'MMM D, YYYY h:mm A';
const SEARCH_DELAY_MS = 300;

export function formatLastLogin(lastLogin: string | null): string {
  return lastLogin ? dayjs(lastLogin).format(LAST_LOGIN_FORMAT) : 'Never';
}

const label = (user: PlatformUserView) => user.name || user.email;

/**
 * User Management: every account of the installation, searched and paged by the server; invite,
 * password reset, Super Admin promote/demote and disable/enable (the server keeps one active super admin).
 */
export function PlatformUsers() {
  const { notification, modal } = App.useApp();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [inviting, setInviting] = useState(false);
  const onError = useCallback(
    (message: string) => notification.error({ title: 'Failed to load users', description: message }),
    [notification],
  );
  const list = useUserList(search, onError);
  const { users, nextCursor, loaded } = usePlatformUsersStore();
  const me = useSessionStore((s) => s.user?.id);
  const { sendPasswordReset, setSuperadmin, setDisabled } = useUserActions();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  const confirmRole = useCallback(
    (user: PlatformUserView) => {
      const promote = !user.isSuperadmin;
      void modal.confirm({
        title: promote ? 'Make Super Admin' : 'Remove Super Admin',
        content: promote
          ? `${label(user)} will be able to manage the whole platform: users, companies, settings.`
          : `${label(user)} will no longer have access to Platform Admin.`,
        okText: promote ? 'Make Super Admin' : 'Remove Super Admin',
        okButtonProps: { danger: !promote },
        onOk: () => setSuperadmin(user, promote),
      });
    },
    [modal, setSuperadmin],
  );

  const confirmDisabled = useCallback(
    (user: PlatformUserView) => {
      const disable = !user.disabled;
      void modal.confirm({
        title: disable ? 'Disable account' : 'Enable account',
        content: disable
          ? `${label(user)} will be signed out everywhere at once and cannot sign in until the account is enabled again.`
          : `${label(user)} will be able to sign in again.`,
        okText: disable ? 'Disable' : 'Enable',
        okButtonProps: { danger: disable },
        onOk: () => setDisabled(user, disable),
      });
    },
    [modal, setDisabled],
  );

  const columns = useMemo<TableColumnType<PlatformUserView>[]>(
    () => [
      {
        key: 'name',
        title: 'Name',
        width: 240,
        render: (_, u) => (
          <Flex align="center" gap="small" style={{ minWidth: 0 }}>
            <AvatarImage src={u.avatar} name={label(u)} />
            <Typography.Text ellipsis>{u.name || '—'}</Typography.Text>
            {u.id === me && <Tag>You</Tag>}
            {u.disabled && <Tag color="error">Disabled</Tag>}
          </Flex>
        ),
      },
      {
        key: 'email',
        title: 'Email',
        width: 260,
        render: (_, u) => <Typography.Text ellipsis>{u.email}</Typography.Text>,
      },
      {
        key: 'role',
        title: 'Role',
        width: 130,
        render: (_, u) => (u.isSuperadmin ? <Tag color="processing">Super Admin</Tag> : <Tag>User</Tag>),
      },
      {
        key: 'lastLogin',
        title: 'Last Login',
        width: 190,
        render: (_, u) =>
          u.lastLogin ? <time dateTime={u.lastLogin}>{formatLastLogin(u.lastLogin)}</time> : 'Never',
      },
      {
        key: 'actions',
        title: 'Actions',
        width: 90,
        render: (_, u) => (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'reset', label: 'Send password reset' },
                { key: 'role', label: u.isSuperadmin ? 'Remove Super Admin' : 'Make Super Admin' },
                { type: 'divider' },
                u.disabled
                  ? { key: 'enable', label: 'Enable account' }
                  : { key: 'disable', label: 'Disable account', danger: true, disabled: u.id === me },
              ],
              onClick: ({ key }) => {
                if (key === 'reset') void sendPasswordReset(u);
                if (key === 'role') confirmRole(u);
                if (key === 'disable' || key === 'enable') confirmDisabled(u);
              },
            }}
          >
            <Button type="text" icon={<MoreOutlined />} aria-label={`Actions for ${label(u)}`} />
          </Dropdown>
        ),
      },
    ],
    [me, sendPasswordReset, confirmRole, confirmDisabled],
  );

  return (
    <>
      <AdminPageHeader
        title="User Management"
        description="Every account of this platform"
        extra={
          <>
            <Button
              icon={<ReloadOutlined />}
              aria-label="Refresh users"
              loading={list.loading && loaded}
              onClick={() => void list.reload()}
            />
            <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)}>
              Invite User
            </Button>
          </>
        }
      />
      <Flex vertical gap="middle">
        <Input.Search
          allowClear
          placeholder="Search by name or email..."
          aria-label="Search users"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onSearch={(value) => setSearch(value.trim())}
          style={{ maxWidth: 360 }}
        />
        {list.error && !loaded && <Alert type="error" title={`Error loading users: ${list.error}`} />}
        <Table<PlatformUserView>
          aria-label="Platform users"
          columns={columns}
          dataSource={users}
          rowKey={(u) => u.id}
          loading={list.loading}
          pagination={false}
          tableLayout="fixed"
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: list.loading ? ' ' : 'No users found' }}
        />
        <Flex justify="space-between" align="center" gap="small" wrap>
          <Typography.Text type="secondary">
            {users.length === 1 ? '1 user shown' : `${users.length} users shown`}
            {nextCursor ? '' : users.length ? ' (all)' : ''}
          </Typography.Text>
          {nextCursor && (
            <Button onClick={() => void list.loadMore()} loading={list.loadingMore}>
              Load more
            </Button>
          )}
        </Flex>
      </Flex>
      <InvitePlatformUserDialog open={inviting} onClose={() => setInviting(false)} />
    </>
  );
}
