import { Tag } from 'antd';
import type { CompanyRole } from '../../../api/contracts';

const LABELS: Record<CompanyRole, string> = { owner: 'Owner', admin: 'Admin', user: 'User' };

/** Spec: owner in the default (solid) style, admin secondary (filled), others outline. */
export function RoleBadge({ role }: { role: CompanyRole }) {
  if (role === 'owner')
    return (
      <Tag color="blue" variant="solid">
        {LABELS.owner}
      </Tag>
    );
  if (role === 'admin') return <Tag variant="filled">{LABELS.admin}</Tag>;
  return <Tag variant="outlined">{LABELS[role]}</Tag>;
}

export const roleLabel = (role: CompanyRole) => LABELS[role];
