import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout, Menu, Spin, Typography, theme, type MenuProps } from 'antd';
import { Suspense, useState, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useIsMobile } from '../hooks/useMediaQuery';

const SIDEBAR_WIDTH = 240;

export interface AdminShellProps {
  /** The sidebar's title, also the navigation landmark's name ('Company Admin', 'Platform Admin'). */
  title: string;
  icon: ReactNode;
  /** Menu items keyed by path; the selected one is the current path. */
  navItems: NonNullable<MenuProps['items']>;
  /** The header's text. */
  heading: ReactNode;
  headingTestId?: string;
  /** The signed-in user's menu, at the header's end (the layout that uses the shell provides it). */
  userMenu: ReactNode;
}

function Sidebar({ title, icon, navItems, onNavigate }: AdminShellProps & { onNavigate?: () => void }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  return (
    <nav aria-label={title} style={{ height: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0, padding: token.padding }}>
        <span style={{ marginRight: token.marginXS }}>{icon}</span>
        {title}
      </Typography.Title>
      <Menu
        mode="inline"
        selectedKeys={[pathname]}
        items={navItems}
        style={{ borderInlineEnd: 'none' }}
        onClick={({ key }) => {
          onNavigate?.();
          void navigate(key);
        }}
      />
    </nav>
  );
}

/** The admin areas' chrome: a sidebar (a drawer on mobile), a header with the user menu, the page. */
export function AdminShell(props: AdminShellProps) {
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);

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
          <Sidebar {...props} onNavigate={() => setDrawerOpen(false)} />
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
          <Sidebar {...props} />
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
            data-testid={props.headingTestId}
          >
            {props.heading}
          </Typography.Text>
          {props.userMenu}
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
