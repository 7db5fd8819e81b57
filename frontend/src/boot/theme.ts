import { DEFAULT_COLOR_SETTINGS, type ColorSettings, type ThemeColors } from '@contracts/platform-appearance';
import { theme, type ThemeConfig } from 'antd';
import {
  contrastRatio,
  ensureContrast,
  ensureContrastOnAll,
  flattenColor,
  hexToHsl,
  hslToHex,
} from '../lib/color';
import type { ResolvedTheme } from '../stores/themeStore';

/** Spec default palettes: light primary #5c6ac4, dark primary #356ded. */
export const DEFAULT_PRIMARY_COLOR: Record<ResolvedTheme, string> = {
  light: DEFAULT_COLOR_SETTINGS.light_theme.primary,
  dark: DEFAULT_COLOR_SETTINGS.dark_theme.primary,
};

/** WCAG AA for normal text. */
const AA = 4.5;

/** The palette of the theme on screen. */
export function themeColors(resolved: ResolvedTheme, colors: ColorSettings): ThemeColors {
  return resolved === 'dark' ? colors.dark_theme : colors.light_theme;
}

type DerivedToken = ReturnType<typeof theme.getDesignToken>;
type Algorithm = typeof theme.defaultAlgorithm;
type Seeds = Parameters<Algorithm>[0];

/**
 * antd treats colorLink as a seed and derives the link colour from it (the dark algorithm darkens it), so
 * it cannot be set directly: the seed, moved step by step, whose derived link colour is readable.
 */
function linkSeed(
  algorithm: Algorithm,
  seeds: Partial<Seeds>,
  wanted: string,
  readable: (c: string) => boolean,
) {
  const derive = (seed: string) => algorithm({ ...theme.defaultSeed, ...seeds, colorLink: seed }).colorLink;
  if (readable(derive(wanted))) return wanted;
  const hsl = hexToHsl(wanted);
  const darkTheme = algorithm === theme.darkAlgorithm;
  for (let step = 1; step <= 100; step++) {
    const l = darkTheme ? hsl.l + step : hsl.l - step;
    if (l < 0 || l > 100) break;
    const seed = hslToHex({ ...hsl, l });
    if (readable(derive(seed))) return seed;
  }
  return wanted;
}

/**
 * Every surface text is drawn on, as antd derives them from the seeds: containers, dialogs and menus,
 * the page behind them, the agent's message bubble (a fill over the page), the selected chat row, and
 * the tinted backgrounds of tags and alerts.
 */
export function textSurfaces(t: DerivedToken): string[] {
  const solid = (color: string) => flattenColor(color, t.colorBgContainer);
  return [
    t.colorBgContainer,
    solid(t.colorBgElevated),
    solid(t.colorBgLayout),
    flattenColor(t.colorFillSecondary, flattenColor(t.colorBgLayout, t.colorBgContainer)),
    flattenColor(t.colorFillSecondary, t.colorBgContainer),
    solid(t.controlItemBgActive),
    solid(t.colorPrimaryBg),
    solid(t.colorInfoBg),
    solid(t.colorSuccessBg),
    solid(t.colorWarningBg),
    solid(t.colorErrorBg),
  ];
}

/**
 * The one mapping from the colour settings (13 keys per theme, saved by superadmins) to antd's tokens.
 * antd derives the rest (hover and active shades, fills, layout backgrounds) from these with the
 * theme's algorithm. Every colour antd draws text in is then checked against every surface text sits on
 * (`textSurfaces`) and nudged darker (light theme) or lighter (dark theme) until it reaches WCAG AA, so a
 * pale brand colour or a saved palette still gives readable links, secondary text, placeholders, tags,
 * tabs and messages; colours that already pass are kept as they are.
 */
export function buildThemeConfig(
  resolved: ResolvedTheme,
  colors: ColorSettings = DEFAULT_COLOR_SETTINGS,
): ThemeConfig {
  const c = themeColors(resolved, colors);
  const algorithm = resolved === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm;
  const seeds = {
    colorPrimary: c.primary,
    colorInfo: c.primary,
    colorBgBase: c.background,
    colorTextBase: c.foreground,
    // antd: colorBorder outlines form controls, colorBorderSecondary divides cards, tables and lists.
    colorBorder: c.input,
    colorBorderSecondary: c.border,
    borderRadius: 8,
  };
  const derived = theme.getDesignToken({ algorithm, token: seeds });
  const surfaces = textSurfaces(derived);
  /** The colour as text: solid, and at least AA on every surface. */
  const text = (color: string) =>
    ensureContrastOnAll(flattenColor(color, derived.colorBgContainer), surfaces, AA);
  const readableOn = (fg: string, bg: string) => contrastRatio(fg, bg) >= AA;
  const readableEverywhere = (fg: string) => surfaces.every((bg) => readableOn(flattenColor(fg, bg), bg));

  const brandText = text(ensureContrast(c.primary, c.background, AA));
  const status = {
    success: text(derived.colorSuccessText),
    info: text(derived.colorInfoText),
    warning: text(derived.colorWarningText),
    error: text(derived.colorErrorText),
  };
  // Text on a filled danger colour (a solid Delete button, a hovered danger menu entry): white where it
  // reads, else the page colour (on a dark theme's light red), else whichever of black and white reads best.
  const onError =
    [c.primary_foreground, c.background].find((fg) => readableOn(fg, status.error)) ??
    (contrastRatio('#000000', status.error) > contrastRatio('#ffffff', status.error) ? '#000000' : '#ffffff');
  // Primary buttons keep their text readable when hovered and pressed too (antd lightens the hover).
  const onPrimary = (shade: string) =>
    readableOn(c.primary_foreground, shade) ? shade : ensureContrastOnAll(shade, [c.primary_foreground], AA);

  return {
    algorithm,
    token: {
      ...seeds,
      colorLink: linkSeed(algorithm, seeds, brandText, readableEverywhere),
      colorLinkHover: text(derived.colorLinkHover),
      colorLinkActive: text(derived.colorLinkActive),
      // A link in running text is told apart by more than its colour.
      linkDecoration: 'underline',
      colorTextSecondary: text(derived.colorTextSecondary),
      colorTextTertiary: text(derived.colorTextTertiary),
      colorTextDescription: text(c.muted_foreground),
      colorTextPlaceholder: text(derived.colorTextPlaceholder),
      colorSuccessText: status.success,
      colorInfoText: status.info,
      colorWarningText: status.warning,
      colorErrorText: status.error,
    },
    components: {
      Button: {
        primaryColor: c.primary_foreground,
        colorPrimaryHover: onPrimary(derived.colorPrimaryHover),
        colorPrimaryActive: onPrimary(derived.colorPrimaryActive),
        defaultHoverColor: brandText,
        defaultActiveColor: brandText,
        // Danger buttons draw their text (outlined) or their fill (solid) in the error colour.
        colorError: status.error,
        colorErrorHover: text(derived.colorErrorHover),
        colorErrorActive: text(derived.colorErrorActive),
        dangerColor: onError,
        ...(readableOn(c.secondary_foreground, c.secondary)
          ? { defaultBg: c.secondary, defaultColor: c.secondary_foreground }
          : {}),
      },
      Menu: {
        ...(readableOn(c.accent_foreground, c.accent)
          ? { itemSelectedBg: c.accent, itemSelectedColor: c.accent_foreground }
          : { itemSelectedColor: brandText }),
        itemHoverBg: c.muted,
      },
      Input: { activeBorderColor: c.ring, hoverBorderColor: c.ring },
      // antd draws these texts in the brand or status colour itself, not in its text shade.
      Tabs: { itemSelectedColor: brandText, itemHoverColor: brandText, itemActiveColor: brandText },
      Tag: {
        colorSuccess: status.success,
        colorInfo: status.info,
        colorWarning: status.warning,
        colorError: status.error,
      },
      // A danger entry (Delete, Log out): error-coloured text, and on hover the error colour filled.
      // A menu the user opens shows above toasts (antd puts notifications at 2050, menus at 1050): a
      // 'Welcome back!' toast at the top right must not cover the user menu's entries.
      Dropdown: { colorError: status.error, colorTextLightSolid: onError, zIndexPopup: 2060 },
      Form: { colorSuccess: status.success, colorWarning: status.warning, colorError: status.error },
      // A table's 'No results.' is drawn in the disabled colour.
      Table: { colorTextDisabled: text(derived.colorTextDisabled) },
    },
  };
}
