import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Select, Switch } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import type { CompanyAgentView } from '../../../api/contracts';
import { AvatarImage } from '../../../components/AvatarImage';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';
import { usePagedList } from '../../../hooks/usePagedList';
import { useCompanyStore } from '../../../stores/companyStore';
import { adminLists } from '../companyAdminSync';
import { useCompanyAdminActions } from '../hooks/useCompanyAdminActions';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { CreateCompanyAgentDialog } from './CreateCompanyAgentDialog';

type ActiveFilter = 'all' | 'active' | 'inactive';

/** The Company Agents page: every agent of the company, on or off. */
export function CompanyAgents() {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const { loading, error } = usePagedList(adminLists.agents, companyId ? { companyId } : null);
  const agents = useCompanyAdminStore((s) => s.agents);
  const { setAgentActive } = useCompanyAdminActions();
  const [creating, setCreating] = useState(false);
  const [active, setActive] = useState<ActiveFilter>('all');
  const [switching, setSwitching] = useState<string | null>(null);

  const columns = useMemo<DataTableColumn<CompanyAgentView>[]>(
    () => [
      { key: 'name', title: 'Name', value: (a) => a.name },
      { key: 'description', title: 'Description', width: 240, value: (a) => a.description },
      {
        key: 'avatar',
        title: 'Avatar',
        width: 80,
        render: (a) => <AvatarImage src={a.avatar} name={a.name} />,
      },
      {
        key: 'is_active',
        title: 'Active',
        width: 100,
        value: (a) => a.isActive,
        filterable: false,
        render: (a) => (
          <Switch
            checked={a.isActive}
            loading={switching === a.id}
            aria-label={`${a.isActive ? 'Deactivate' : 'Activate'} ${a.name}`}
            onChange={(checked) => {
              setSwitching(a.id);
              void setAgentActive(a, checked).finally(() => setSwitching(null));
            }}
          />
        ),
      },
      {
        key: 'created_at',
        title: 'Created At',
        value: (a) => a.createdAt,
        filterable: false,
        render: (a) => dayjs(a.createdAt).format('MMM D, YYYY h:mm A'),
      },
      { key: 'company_id', title: 'Company ID', width: 300, value: (a) => a.companyId, filterable: false },
    ],
    [setAgentActive, switching],
  );

  const rows = agents.items.filter((a) => active === 'all' || a.isActive === (active === 'active'));

  return (
    <>
      <AdminPageHeader
        title="Company Agents"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            Create Agent
          </Button>
        }
      />
      {error && (
        <Alert type="error" showIcon title={`Error loading agents: ${error}`} style={{ marginBottom: 16 }} />
      )}
      <DataTable<CompanyAgentView>
        label="Company agents"
        columns={columns}
        data={rows}
        rowKey={(a) => a.id}
        loading={loading && !agents.loaded}
        toolbar={
          <Select<ActiveFilter>
            aria-label="Filter by is_active"
            value={active}
            onChange={setActive}
            style={{ width: 160 }}
            options={[
              { value: 'all', label: 'All agents' },
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
          />
        }
      />
      <CreateCompanyAgentDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
