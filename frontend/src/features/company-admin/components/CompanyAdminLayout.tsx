import {
  AppstoreOutlined,
  ArrowLeftOutlined,
  BarChartOutlined,
  SendOutlined,
  HistoryOutlined,
  InfoCircleOutlined,
  MailOutlined,
  RobotOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Spin, type MenuProps } from 'antd';
import { useAccessDeniedNotice } from '../../../hooks/useAccessDeniedNotice';
import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { canAccessCompanyAdmin } from '../../../lib/access';
import { AdminShell } from '../../../components/AdminShell';
import { UserMenu } from '../../user-menu/components/UserMenu';
import { useCompanyStore, useCurrentCompany } from '../../../stores/companyStore';
import { useCompanyActions } from '../../companies/hooks/useCompanyActions';

export const COMPANY_ADMIN_BASE = '/company/admin';

const NAV_ITEMS: NonNullable<MenuProps['items']> = [
  { key: `${COMPANY_ADMIN_BASE}/users`, icon: <TeamOutlined />, label: 'Users' },
  { key: `${COMPANY_ADMIN_BASE}/invitations`, icon: <MailOutlined />, label: 'Invitations' },
  { key: `${COMPANY_ADMIN_BASE}/agents`, icon: <RobotOutlined />, label: 'Agents' },
  { key: `${COMPANY_ADMIN_BASE}/settings`, icon: <SettingOutlined />, label: 'Settings' },
  { key: `${COMPANY_ADMIN_BASE}/details`, icon: <InfoCircleOutlined />, label: 'Company Details' },
  { key: `${COMPANY_ADMIN_BASE}/activity`, icon: <HistoryOutlined />, label: 'Activity' },
  { key: `${COMPANY_ADMIN_BASE}/insights`, icon: <BarChartOutlined />, label: 'Insights' },
  { key: `${COMPANY_ADMIN_BASE}/deliveries`, icon: <SendOutlined />, label: 'Delivery log' },
  { type: 'divider' },
  { key: '/chat', icon: <ArrowLeftOutlined />, label: 'Back to App' },
];

/**
 * `?company={id}` (the landing after accepting an invitation) makes that company current, then leaves
 * the address, so a later switch from the user menu is not undone. True while that is under way.
 */
function useCompanyFromQuery(): boolean {
  const [searchParams] = useSearchParams();
  const requested = searchParams.get('company');
  const currentCompanyId = useCompanyStore((s) => s.currentCompanyId);
  const { switchCompany } = useCompanyActions();
  const handled = useRef<string | null>(null);
  const navigate = useNavigate();
  // Where the page is when the switch ends: the index route has meanwhile moved on to /users, and
  // dropping the query must not take it back to /company/admin.
  const location = useLocation();
  const latestPath = useRef(location.pathname);
  useEffect(() => {
    latestPath.current = location.pathname;
  }, [location.pathname]);

  useEffect(() => {
    if (!requested || handled.current === requested) return;
    handled.current = requested;
    const done = () => {
      // The landing itself (the index route) is the Users page: go there directly, whichever of the
      // two navigations would otherwise land last.
      const path = latestPath.current.replace(/\/+$/, '');
      const pathname = path === COMPANY_ADMIN_BASE ? `${COMPANY_ADMIN_BASE}/users` : path;
      void navigate({ pathname, search: '' }, { replace: true });
    };
    if (requested === useCompanyStore.getState().currentCompanyId) done();
    else void switchCompany(requested).finally(done);
  }, [requested, switchCompany, navigate]);

  return !!requested && requested !== currentCompanyId;
}

/** The spec's company admin layout, for owners and admins of the current company. */
export function CompanyAdminLayout() {
  const company = useCurrentCompany();
  const switching = useCompanyFromQuery();
  const allowed = canAccessCompanyAdmin(company?.role);
  useAccessDeniedNotice(
    !switching && !allowed,
    'company-admin-denied',
    'Only owners and admins of a company can open Company Admin.',
  );

  if (switching) return <Spin fullscreen description="Loading..." />;
  if (!allowed) return <Navigate to="/chat" replace />;
  // The company requires single sign-on from this session: the chat page says so and offers it.
  if (company?.ssoRequired) return <Navigate to="/chat" replace />;

  return (
    <AdminShell
      title="Company Admin"
      icon={<AppstoreOutlined />}
      navItems={NAV_ITEMS}
      heading={company?.name || 'Company Admin'}
      userMenu={<UserMenu />}
      headingTestId="admin-company-name"
    />
  );
}
