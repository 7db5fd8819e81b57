import { ConfigProvider } from 'antd';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useIsMobile } from '../hooks/useMediaQuery';
import { useAppearance } from '../stores/appearanceStore';
import { applyAppearanceToDocument } from '../features/platform-admin/appearance/applyAppearanceToDocument';
import { useResolvedTheme, watchSystemTheme } from '../stores/themeStore';
import { AppShell } from '../hooks/appApi';
import { themeConfigFor } from '../boot/themeCache';

/** Where toasts start: below antd's Layout.Header (64 px), with the gap antd keeps at the top (8 px). */
const TOASTS_TOP = 72;

const THEME_CLASS = 'sb-theme';

/**
 * The one ConfigProvider: theme (light, dark, system) with the platform's colour settings, and antd's
 * context-aware toasts and dialogs. The appearance is read once at start (signed in or not) and then
 * follows the server's events; switching the theme recomputes tokens from what is already here.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const resolved = useResolvedTheme();
  const isMobile = useIsMobile();
  const appearance = useAppearance();
  // zeroRuntime: antd's component styles come from its prebuilt stylesheet (imported in main.tsx), not
  // generated in the page at first render (what that buys: src/boot/README.md). The theme's tokens,
  // platform colours included, still apply live: antd writes them as CSS variables, which that
  // stylesheet reads.
  // cssVar.key: the class the theme's CSS variables hang on, one name on every load rather than one
  // from React's useId.
  const themeConfig = useMemo(
    () => ({
      ...themeConfigFor(resolved, appearance.colors),
      zeroRuntime: true,
      cssVar: { key: THEME_CLASS },
    }),
    [resolved, appearance.colors],
  );

  // One object per placement: antd makes a new `notification` API whenever this config changes, and
  // screens run effects keyed on that API (a new object on every render reloaded the chat on a theme
  // switch). Below the pages' 64 px header, whose controls (the user menu, the call button) a toast
  // must not cover: a pointer resting on a toast keeps it open.
  const notificationConfig = useMemo(
    () => ({ placement: isMobile ? ('top' as const) : ('topRight' as const), top: TOASTS_TOP }),
    [isMobile],
  );

  useEffect(() => watchSystemTheme(), []);
  useEffect(() => applyAppearanceToDocument(appearance), [appearance]);
  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    document.documentElement.style.colorScheme = resolved;
  }, [resolved]);

  return (
    <ConfigProvider theme={themeConfig}>
      <AppShell notification={notificationConfig}>{children}</AppShell>
    </ConfigProvider>
  );
}
