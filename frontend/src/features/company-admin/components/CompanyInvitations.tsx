import { MoreOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Dropdown, Tag, type MenuProps } from 'antd';
import { App } from '../../../hooks/appApi';
import { useCallback, useMemo, useState } from 'react';
import type { InvitationStatus, InvitationView } from '../../../api/contracts';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { useInvitationActions } from '../../invitations/hooks/useInvitationActions';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';
import { usePagedList } from '../../../hooks/usePagedList';
import { useCompanyStore } from '../../../stores/companyStore';
import { adminLists } from '../companyAdminSync';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { InviteUserDialog } from './InviteUserDialog';
import { RoleBadge } from '../../../components/RoleBadge';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec: the list shows days remaining, rounded up; a pending invitation past its expiry shows as expired. */
export function daysRemaining(expiresAt: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / DAY_MS));
}

export function shownStatus(invitation: InvitationView, now = Date.now()): InvitationStatus {
  return invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() <= now
    ? 'expired'
    : invitation.status;
}

const STATUS_COLORS: Record<InvitationStatus, string> = {
  pending: 'processing',
  accepted: 'success',
  rejected: 'error',
  expired: 'default',
};

/** The Company Invitations page. */
export function CompanyInvitations() {
  const { modal } = App.useApp();
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const { loading, error, reload } = usePagedList(adminLists.invitations, companyId ? { companyId } : null);
  const invitations = useCompanyAdminStore((s) => s.invitations);
  const actions = useInvitationActions();
  const [creating, setCreating] = useState(false);

  const confirmDelete = useCallback(
    (invitation: InvitationView) => {
      void modal.confirm({
        title: 'Delete invitation',
        content: `Delete the invitation to ${invitation.email}? Its link stops working.`,
        okText: 'Delete',
        okButtonProps: { danger: true },
        onOk: () => actions.remove(invitation),
      });
    },
    [modal, actions],
  );

  const columns = useMemo<DataTableColumn<InvitationView>[]>(
    () => [
      { key: 'email', title: 'Invitee', width: 240, value: (i) => i.email },
      {
        key: 'role',
        title: 'Role',
        width: 100,
        value: (i) => i.role,
        render: (i) => <RoleBadge role={i.role} />,
      },
      {
        key: 'status',
        title: 'Status',
        width: 120,
        value: (i) => shownStatus(i),
        render: (i) => {
          const status = shownStatus(i);
          return <Tag color={STATUS_COLORS[status]}>{status}</Tag>;
        },
      },
      { key: 'invitedBy', title: 'Invited By', value: (i) => i.invitedBy?.name ?? 'Unnamed User' },
      {
        key: 'expires',
        title: 'Expires',
        width: 120,
        filterable: false,
        value: (i) => daysRemaining(i.expiresAt),
        render: (i) => {
          if (shownStatus(i) !== 'pending') return '—';
          const days = daysRemaining(i.expiresAt);
          return `${days} ${days === 1 ? 'day' : 'days'}`;
        },
      },
      {
        key: 'actions',
        title: 'Actions',
        width: 90,
        render: (i) => {
          const pending = shownStatus(i) === 'pending';
          const items: MenuProps['items'] = [
            { key: 'copy-link', label: 'Copy Invite Link' },
            ...(pending
              ? [
                  { key: 'copy', label: 'Copy' },
                  { key: 'resend', label: 'Resend' },
                  { type: 'divider' as const },
                  { key: 'delete', label: 'Delete', danger: true },
                ]
              : []),
          ];
          return (
            <Dropdown
              trigger={['click']}
              menu={{
                items,
                onClick: ({ key }) => {
                  if (key === 'copy-link' || key === 'copy') void actions.copyLink(i);
                  if (key === 'resend') void actions.resend(i);
                  if (key === 'delete') confirmDelete(i);
                },
              }}
            >
              <Button type="text" icon={<MoreOutlined />} aria-label={`Actions for ${i.email}`} />
            </Dropdown>
          );
        },
      },
    ],
    [actions, confirmDelete],
  );

  return (
    <>
      <AdminPageHeader
        title="Company Invitations"
        extra={
          <>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void reload()}
              loading={loading && invitations.loaded}
            >
              Refresh
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              New Invitation
            </Button>
          </>
        }
      />
      {error && (
        <Alert
          type="error"
          showIcon
          title={`Error loading invitations: ${error}`}
          style={{ marginBottom: 16 }}
        />
      )}
      <DataTable<InvitationView>
        label="Company invitations"
        columns={columns}
        data={invitations.items}
        rowKey={(i) => i.id}
        filterColumn="status"
        loading={loading && !invitations.loaded}
      />
      <InviteUserDialog open={creating} onClose={() => setCreating(false)} from="invitations" />
    </>
  );
}
