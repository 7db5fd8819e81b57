import { MenuOutlined } from '@ant-design/icons';
import { Button, Layout, theme, type DrawerProps } from 'antd';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useIsMobile } from '../hooks/useMediaQuery';
import { lazyDialog } from './lazyDialog';

// The phone's sidebar drawer: its code loads when it first opens (or its button is hovered or focused),
// so that no screen's first load pays for a drawer a desktop never shows.
const Drawer = lazyDialog<DrawerProps & { open: boolean }>(() =>
  import('antd/es/drawer').then((m) => m.default),
);

export interface ShellSidebar {
  /** The navigation landmark's name ('Sidebar', 'Company Admin'...). */
  label: string;
  width: number | string;
  /** The header button's name that opens the sidebar on a phone. */
  openLabel: string;
  /** The sidebar's contents; on a phone `onNavigate` closes the drawer once the user has gone somewhere. */
  render: (onNavigate?: () => void) => ReactNode;
}

export interface PageShellProps {
  /** A sidebar beside the page on a desktop, a drawer opened from the header on a phone. */
  sidebar?: ShellSidebar;
  /** The header's contents, after the sidebar's button. */
  header: ReactNode;
  /** The page is exactly the window's height, its content scrolling inside (the chat), not at least that. */
  fitHeight?: boolean;
  /** Before everything else in the page (a skip link). */
  before?: ReactNode;
  /** The content area's own id, focusability and style. */
  content?: { id?: string; tabIndex?: number; style?: CSSProperties };
  children: ReactNode;
}

/** The signed-in screens' chrome: a header, an optional sidebar (a drawer on a phone), the page. */
export function PageShell({ sidebar, header, fitHeight, before, content, children }: PageShellProps) {
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const border = `1px solid ${token.colorBorderSecondary}`;

  const nav = (onNavigate?: () => void) =>
    sidebar && (
      <nav aria-label={sidebar.label} style={{ height: '100%' }}>
        {sidebar.render(onNavigate)}
      </nav>
    );

  return (
    <Layout style={fitHeight ? { height: '100dvh' } : { minHeight: '100dvh' }}>
      {before}
      {sidebar &&
        (isMobile ? (
          <Drawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            placement="left"
            size={sidebar.width}
            closable={false}
            title={null}
            styles={{ body: { padding: 0 } }}
          >
            {nav(() => setDrawerOpen(false))}
          </Drawer>
        ) : (
          <Layout.Sider
            width={sidebar.width}
            theme="light"
            style={{ borderRight: border, background: token.colorBgContainer }}
          >
            {nav()}
          </Layout.Sider>
        ))}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: token.marginSM,
            paddingInline: token.padding,
            background: token.colorBgContainer,
            borderBottom: border,
          }}
        >
          {sidebar && isMobile && (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={sidebar.openLabel}
              aria-expanded={drawerOpen}
              onPointerEnter={Drawer.preload}
              onFocus={Drawer.preload}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          {header}
        </Layout.Header>
        <Layout.Content {...content}>{children}</Layout.Content>
      </Layout>
    </Layout>
  );
}
