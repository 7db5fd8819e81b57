import { Menu, Spin, Typography, theme, type MenuProps } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useIsMobile } from '../hooks/useMediaQuery';
import { PageShell } from './PageShell';

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
    <>
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
    </>
  );
}

/** The admin areas' chrome: the page shell with the area's menu, its heading and the user menu. */
export function AdminShell(props: AdminShellProps) {
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  return (
    <PageShell
      sidebar={{
        label: props.title,
        width: SIDEBAR_WIDTH,
        openLabel: 'Open admin navigation',
        render: (onNavigate) => <Sidebar {...props} onNavigate={onNavigate} />,
      }}
      header={
        <>
          <Typography.Text
            strong
            ellipsis
            style={{ flex: 1, fontSize: token.fontSizeLG }}
            data-testid={props.headingTestId}
          >
            {props.heading}
          </Typography.Text>
          {props.userMenu}
        </>
      }
      content={{ style: { padding: isMobile ? token.padding : token.paddingLG, minWidth: 0 } }}
    >
      <Suspense fallback={<Spin description="Loading..." />}>
        <Outlet />
      </Suspense>
    </PageShell>
  );
}
