import { theme, type ThemeConfig } from 'antd';
import type { ResolvedTheme } from '../features/theme/themeStore';

/** Spec default palettes: light primary #5c6ac4, dark primary #356ded. */
export const DEFAULT_PRIMARY_COLOR: Record<ResolvedTheme, string> = {
  light: '#5c6ac4',
  dark: '#356ded',
};

export function buildThemeConfig(resolved: ResolvedTheme): ThemeConfig {
  return {
    algorithm: resolved === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: DEFAULT_PRIMARY_COLOR[resolved],
      borderRadius: 8,
    },
  };
}
