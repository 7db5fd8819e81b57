import {
  ArrowLeftOutlined,
  BankOutlined,
  BgColorsOutlined,
  CrownOutlined,
  RobotOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { type MenuProps } from 'antd';
import { useAccessDeniedNotice } from '../../../hooks/useAccessDeniedNotice';
import { Navigate } from 'react-router-dom';
import { canAccessPlatformAdmin } from '../../../lib/access';
import { AdminShell } from '../../../components/AdminShell';
import { UserMenu } from '../../user-menu/components/UserMenu';
import { useSessionStore } from '../../../stores/sessionStore';

export const PLATFORM_ADMIN_BASE = '/admin';

const NAV_ITEMS: NonNullable<MenuProps['items']> = [
  { key: `${PLATFORM_ADMIN_BASE}/settings`, icon: <SettingOutlined />, label: 'Settings' },
  { key: `${PLATFORM_ADMIN_BASE}/colors`, icon: <BgColorsOutlined />, label: 'Colors' },
  { key: `${PLATFORM_ADMIN_BASE}/users`, icon: <TeamOutlined />, label: 'Users' },
  { key: `${PLATFORM_ADMIN_BASE}/companies`, icon: <BankOutlined />, label: 'Companies' },
  { key: `${PLATFORM_ADMIN_BASE}/agents`, icon: <RobotOutlined />, label: 'Agents' },
  { key: `${PLATFORM_ADMIN_BASE}/security`, icon: <SafetyOutlined />, label: 'Security' },
  { type: 'divider' },
  { key: '/chat', icon: <ArrowLeftOutlined />, label: 'Back to App' },
];

/** The spec's platform admin layout: superadmins only (the server checks every call as well). */
export function PlatformAdminLayout() {
  const allowed = useSessionStore((s) => canAccessPlatformAdmin(s.user));
  useAccessDeniedNotice(
    !allowed,
    'platform-admin-denied',
    'Only platform administrators can open Platform Admin.',
  );

  if (!allowed) return <Navigate to="/chat" replace />;
  return (
    <AdminShell
      title="Platform Admin"
      icon={<CrownOutlined />}
      navItems={NAV_ITEMS}
      heading="Platform Admin"
      userMenu={<UserMenu />}
      headingTestId="platform-admin-heading"
    />
  );
}
