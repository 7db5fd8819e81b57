import { DEFAULT_COLOR_SETTINGS, type PlatformAppearance } from '@contracts/platform-appearance';
import { describe, expect, it } from 'vitest';
import { buildThemeConfig } from '../../../boot/theme';
import { dispatch } from '../../../sync/dispatch';
import {
  APPEARANCE_STORAGE_KEY,
  DEFAULT_APPEARANCE,
  parseAppearance,
  useAppearanceStore,
} from '../../../stores/appearanceStore';
import { appearanceCss, applyAppearanceToDocument } from './applyAppearanceToDocument';
import { contrastRatio, ensureContrast, hslTriple } from '../../../lib/color';

const saved: PlatformAppearance = {
  logoUrl: '/api/files/7d0c6c5e-1111-4000-8000-000000000000',
  faviconUrl: 'https://cdn.example.com/favicon.png',
  accentColor: '#12a150',
  colors: {
    light_theme: { ...DEFAULT_COLOR_SETTINGS.light_theme, primary: '#12a150' },
    dark_theme: { ...DEFAULT_COLOR_SETTINGS.dark_theme, background: '#000000', primary: '#ff8800' },
  },
  updatedAt: '2026-11-22T10:00:00.000Z',
};

describe('colour arithmetic', () => {
  it("writes colours as the spec's 'H S% L%' triples", () => {
    expect(hslTriple('#9b87f5')).toBe('250.9 84.6% 74.5%');
    expect(hslTriple('#ffffff')).toBe('0 0% 100%');
    expect(hslTriple('#000000')).toBe('0 0% 0%');
    expect(hslTriple('#ff0000')).toBe('0 100% 50%');
  });

  it('darkens a pale brand colour on a light background (and lightens it on a dark one) to reach AA', () => {
    const onWhite = ensureContrast('#9b87f5', '#ffffff');
    expect(contrastRatio(onWhite, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#9b87f5', '#ffffff')).toBeLessThan(4.5);
    const onBlack = ensureContrast('#1d2a6b', '#000000');
    expect(contrastRatio(onBlack, '#000000')).toBeGreaterThanOrEqual(4.5);
    expect(ensureContrast('#000000', '#ffffff')).toBe('#000000');
  });
});

describe('theme mapping', () => {
  it('drives antd tokens from the theme on screen', () => {
    const light = buildThemeConfig('light', saved.colors);
    expect(light.token).toMatchObject({
      colorPrimary: '#12a150',
      colorBgBase: DEFAULT_COLOR_SETTINGS.light_theme.background,
      colorTextBase: DEFAULT_COLOR_SETTINGS.light_theme.foreground,
      colorBorder: DEFAULT_COLOR_SETTINGS.light_theme.input,
      colorBorderSecondary: DEFAULT_COLOR_SETTINGS.light_theme.border,
    });
    const dark = buildThemeConfig('dark', saved.colors);
    expect(dark.token).toMatchObject({ colorPrimary: '#ff8800', colorBgBase: '#000000' });
    expect(buildThemeConfig('light').token?.colorPrimary).toBe('#5c6ac4');
    expect(buildThemeConfig('dark').token?.colorPrimary).toBe('#356ded');
  });

  it('keeps links readable when the primary colour is pale', () => {
    const pale = {
      ...DEFAULT_COLOR_SETTINGS,
      light_theme: { ...DEFAULT_COLOR_SETTINGS.light_theme, primary: '#c9c2f8' },
    };
    const link = buildThemeConfig('light', pale).token?.colorLink as string;
    expect(contrastRatio(link, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('applying the appearance to the page', () => {
  it('writes both themes as CSS variables and the favicon link', () => {
    const css = appearanceCss(saved.colors);
    expect(css).toContain(':root {\n  --background: 0 0% 100%;');
    expect(css).toContain(":root[data-theme='dark'] {\n  --background: 0 0% 0%;");
    expect(css).toContain('--primary-foreground:');

    applyAppearanceToDocument(saved);
    expect(document.getElementById('sb-appearance')?.textContent).toBe(css);
    const icon = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
    expect(icon?.getAttribute('href')).toBe('https://cdn.example.com/favicon.png');
    applyAppearanceToDocument(DEFAULT_APPEARANCE);
    expect(document.querySelectorAll('link[rel~="icon"]')).toHaveLength(1);
    expect(icon?.getAttribute('href')).toBe('/logo.svg');
    expect(icon?.type).toBe('image/svg+xml');
  });
});

describe('appearance store', () => {
  it('follows platform.appearance_updated and remembers it for the next load', () => {
    expect(dispatch({ name: 'platform.appearance_updated', payload: saved })).toBe(true);
    expect(useAppearanceStore.getState().appearance).toEqual(saved);
    expect(JSON.parse(localStorage.getItem(APPEARANCE_STORAGE_KEY) ?? 'null')).toEqual(saved);
  });

  it('refuses payloads that are incomplete or name unsafe addresses', () => {
    expect(parseAppearance(saved)).toEqual(saved);
    expect(parseAppearance({ ...saved, logoUrl: 'javascript:alert(1)' })).toBeNull();
    expect(parseAppearance({ ...saved, faviconUrl: '//evil.example/x.ico' })).toBeNull();
    expect(parseAppearance({ ...saved, accentColor: 'red' })).toBeNull();
    const { ring: _ring, ...partial } = saved.colors.dark_theme;
    expect(parseAppearance({ ...saved, colors: { ...saved.colors, dark_theme: partial } })).toBeNull();
    expect(parseAppearance(null)).toBeNull();
  });
});
