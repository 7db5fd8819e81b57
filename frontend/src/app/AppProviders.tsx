import { App as AntdApp, ConfigProvider } from 'antd';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useResolvedTheme, watchSystemTheme } from '../features/theme/themeStore';
import { buildThemeConfig } from './theme';

/** The one ConfigProvider: theme (light, dark, system) and antd's context-aware toasts and dialogs. */
export function AppProviders({ children }: { children: ReactNode }) {
  const resolved = useResolvedTheme();
  const themeConfig = useMemo(() => buildThemeConfig(resolved), [resolved]);

  useEffect(() => watchSystemTheme(), []);
  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    document.documentElement.style.colorScheme = resolved;
  }, [resolved]);

  return (
    <ConfigProvider theme={themeConfig}>
      <AntdApp notification={{ placement: 'bottomRight' }}>{children}</AntdApp>
    </ConfigProvider>
  );
}
