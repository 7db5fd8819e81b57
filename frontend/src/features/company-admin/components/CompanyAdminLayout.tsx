import {
  AppstoreOutlined,
  ArrowLeftOutlined,
  InfoCircleOutlined,
  MailOutlined,
  MenuOutlined,
  RobotOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { App, Button, Drawer, Layout, Menu, Spin, Typography, theme, type MenuProps } from 'antd';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { canAccessCompanyAdmin } from '../../../app/access';
import { useIsMobile } from '../../../hooks/useMediaQuery';
import { useCompanyStore, useCurrentCompany } from '../../companies/companyStore';
import { useCompanyActions } from '../../companies/hooks/useCompanyActions';
import { UserMenu } from '../../user-menu/components/UserMenu';

export const COMPANY_ADMIN_BASE = '/company/admin';
const SIDEBAR_WIDTH = 240;

const NAV_ITEMS: NonNullable<MenuProps['items']> = [
  { key: `${COMPANY_ADMIN_BASE}/users`, icon: <TeamOutlined />, label: 'Users' },
  { key: `${COMPANY_ADMIN_BASE}/invitations`, icon: <MailOutlined />, label: 'Invitations' },
  { key: `${COMPANY_ADMIN_BASE}/agents`, icon: <RobotOutlined />, label: 'Agents' },
  { key: `${COMPANY_ADMIN_BASE}/settings`, icon: <SettingOutlined />, label: 'Settings' },
  { key: `${COMPANY_ADMIN_BASE}/details`, icon: <InfoCircleOutlined />, label: 'Company Details' },
  { type: 'divider' },
  { key: '/chat', icon: <ArrowLeftOutlined />, label: 'Back to App' },
];

function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  return (
    <nav aria-label="Company Admin" style={{ height: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0, padding: token.padding }}>
        <AppstoreOutlined style={{ marginRight: token.marginXS }} />
        Company Admin
      </Typography.Title>
      <Menu
        mode="inline"
        selectedKeys={[pathname]}
        items={NAV_ITEMS}
        style={{ borderInlineEnd: 'none' }}
        onClick={({ key }) => {
          onNavigate?.();
          void navigate(key);
        }}
      />
    </nav>
  );
}

/**
 * `?company={id}` (the landing after accepting an invitation) makes that company current, then leaves
 * the address, so a later switch from the user menu is not undone. True while that is under way.
 */
function useCompanyFromQuery(): boolean {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('company');
  const currentCompanyId = useCompanyStore((s) => s.currentCompanyId);
  const { switchCompany } = useCompanyActions();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!requested || handled.current === requested) return;
    handled.current = requested;
    const done = () => setSearchParams({}, { replace: true });
    if (requested === useCompanyStore.getState().currentCompanyId) done();
    else void switchCompany(requested).finally(done);
  }, [requested, switchCompany, setSearchParams]);

  return !!requested && requested !== currentCompanyId;
}

/** The spec's company admin layout, for owners and admins of the current company. */
export function CompanyAdminLayout() {
  const { token } = theme.useToken();
  const { notification } = App.useApp();
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const company = useCurrentCompany();
  const switching = useCompanyFromQuery();
  const allowed = canAccessCompanyAdmin(company?.role);

  useEffect(() => {
    if (!switching && !allowed) {
      notification.error({
        key: 'company-admin-denied',
        title: 'Access denied',
        description: 'Only owners and admins of a company can open Company Admin.',
      });
    }
  }, [switching, allowed, notification]);

  if (switching) return <Spin fullscreen description="Loading..." />;
  if (!allowed) return <Navigate to="/chat" replace />;

  return (
    <Layout style={{ minHeight: '100dvh' }}>
      {isMobile ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={SIDEBAR_WIDTH}
          title={null}
          closable={false}
          styles={{ body: { padding: 0 } }}
        >
          <Sidebar onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Layout.Sider
          width={SIDEBAR_WIDTH}
          theme="light"
          style={{
            borderRight: `1px solid ${token.colorBorderSecondary}`,
            background: token.colorBgContainer,
          }}
        >
          <Sidebar />
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: token.marginSM,
            paddingInline: token.padding,
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {isMobile && (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label="Open admin navigation"
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <Typography.Text
            strong
            ellipsis
            style={{ flex: 1, fontSize: token.fontSizeLG }}
            data-testid="admin-company-name"
          >
            {company?.name || 'Company Admin'}
          </Typography.Text>
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ padding: isMobile ? token.padding : token.paddingLG, minWidth: 0 }}>
          <Suspense fallback={<Spin description="Loading..." />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
