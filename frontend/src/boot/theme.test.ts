import { DEFAULT_COLOR_SETTINGS, type ColorSettings } from '@contracts/platform-appearance';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { contrastRatio, flattenColor } from '../lib/color';
import { buildThemeConfig, textSurfaces } from './theme';

const PALETTES: Record<string, ColorSettings> = {
  default: DEFAULT_COLOR_SETTINGS,
  'pale and bright brand colours': {
    light_theme: { ...DEFAULT_COLOR_SETTINGS.light_theme, primary: '#c9c2f8', muted_foreground: '#b0b0b0' },
    dark_theme: { ...DEFAULT_COLOR_SETTINGS.dark_theme, primary: '#1a237e', muted_foreground: '#3a3a3a' },
  },
  'black and grey backgrounds': {
    light_theme: { ...DEFAULT_COLOR_SETTINGS.light_theme, background: '#eeeeee', primary: '#12a150' },
    dark_theme: { ...DEFAULT_COLOR_SETTINGS.dark_theme, background: '#000000', primary: '#ff8800' },
  },
};

/** The text colours antd draws with, globally and in the components the theme adjusts. */
function textColors(config: ReturnType<typeof buildThemeConfig>): Record<string, string> {
  const t = theme.getDesignToken(config);
  const c = config.components ?? {};
  return {
    colorText: t.colorText,
    colorTextSecondary: t.colorTextSecondary,
    colorTextTertiary: t.colorTextTertiary,
    colorTextDescription: t.colorTextDescription,
    colorTextPlaceholder: t.colorTextPlaceholder,
    colorLink: t.colorLink,
    colorLinkHover: t.colorLinkHover,
    colorLinkActive: t.colorLinkActive,
    colorSuccessText: t.colorSuccessText,
    colorInfoText: t.colorInfoText,
    colorWarningText: t.colorWarningText,
    colorErrorText: t.colorErrorText,
    'Tabs.itemSelectedColor': c.Tabs?.itemSelectedColor as string,
    'Tabs.itemHoverColor': c.Tabs?.itemHoverColor as string,
    'Tag.colorInfo': c.Tag?.colorInfo as string,
    'Tag.colorSuccess': c.Tag?.colorSuccess as string,
    'Tag.colorError': c.Tag?.colorError as string,
    'Tag.colorWarning': c.Tag?.colorWarning as string,
    'Form.colorError': c.Form?.colorError as string,
    'Table.colorTextDisabled': c.Table?.colorTextDisabled as string,
    'Button.defaultHoverColor': c.Button?.defaultHoverColor as string,
    'Button.colorError': c.Button?.colorError as string,
    'Button.colorErrorHover': c.Button?.colorErrorHover as string,
    'Dropdown.colorError': c.Dropdown?.colorError as string,
  };
}

describe('theme contrast (every text at least 4.5:1 in both themes)', () => {
  for (const [name, palette] of Object.entries(PALETTES)) {
    for (const mode of ['light', 'dark'] as const) {
      it(`${name}, ${mode}: every text colour on every surface it is drawn on`, () => {
        const config = buildThemeConfig(mode, palette);
        const derived = theme.getDesignToken(config);
        const surfaces = textSurfaces(derived);
        const failures: string[] = [];
        for (const [token, color] of Object.entries(textColors(config))) {
          expect(color, token).toBeTruthy();
          for (const surface of surfaces) {
            const ratio = contrastRatio(flattenColor(color, surface), surface);
            if (ratio < 4.5) failures.push(`${token} ${color} on ${surface}: ${ratio.toFixed(2)}`);
          }
        }
        expect(failures).toEqual([]);
      });

      it(`${name}, ${mode}: primary and danger buttons keep their text readable at rest, hovered and pressed`, () => {
        const config = buildThemeConfig(mode, palette);
        const colors = mode === 'dark' ? palette.dark_theme : palette.light_theme;
        const derived = theme.getDesignToken(config);
        const button = config.components?.Button ?? {};
        const text = colors.primary_foreground;
        expect(contrastRatio(text, button.colorPrimaryHover as string)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(text, button.colorPrimaryActive as string)).toBeGreaterThanOrEqual(4.5);
        // Solid danger buttons and hovered danger menu entries: their text on the error colour.
        for (const fill of [button.colorError, button.colorErrorHover, button.colorErrorActive]) {
          expect(contrastRatio(button.dangerColor as string, fill as string)).toBeGreaterThanOrEqual(4.5);
        }
        const dropdown = config.components?.Dropdown ?? {};
        expect(
          contrastRatio(dropdown.colorTextLightSolid as string, dropdown.colorError as string),
        ).toBeGreaterThanOrEqual(4.5);
        if (contrastRatio(text, colors.primary) >= 4.5) {
          // The brand colour itself is left alone when it already works as a button.
          expect(contrastRatio(text, derived.colorPrimary)).toBeGreaterThanOrEqual(4.5);
        }
      });
    }
  }

  it('underlines links, so running text does not tell them apart by colour alone', () => {
    expect(buildThemeConfig('light').token?.linkDecoration).toBe('underline');
  });

  it('leaves the default palette as it is where it already passes', () => {
    const light = buildThemeConfig('light').token ?? {};
    expect(light.colorTextDescription).toBe(DEFAULT_COLOR_SETTINGS.light_theme.muted_foreground);
    expect(buildThemeConfig('dark').token?.colorTextDescription).toBe(
      DEFAULT_COLOR_SETTINGS.dark_theme.muted_foreground,
    );
  });
});
