import { Tag, theme } from 'antd';
import type { CompanyRole } from '../api/contracts';

const LABELS: Record<CompanyRole, string> = { owner: 'Owner', admin: 'Admin', user: 'User' };

/** Spec: owner in the default style (solid, the theme's primary colour), admin secondary (filled), others outline. */
export function RoleBadge({ role }: { role: CompanyRole }) {
  const { token } = theme.useToken();
  if (role === 'owner')
    return (
      <Tag color={token.colorPrimary} variant="solid">
        {LABELS.owner}
      </Tag>
    );
  if (role === 'admin') return <Tag variant="filled">{LABELS.admin}</Tag>;
  return <Tag variant="outlined">{LABELS[role]}</Tag>;
}
