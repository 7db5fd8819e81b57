import {
  COLOR_KEYS,
  type ColorSettings,
  DEFAULT_COLOR_SETTINGS,
  type ThemeColors,
} from '../contracts/platform-appearance';

/** WCAG relative luminance of '#RRGGBB'. */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** White or black, whichever reads better on the colour. */
export function readableTextOn(background: string): string {
  return contrastRatio('#ffffff', background) >= contrastRatio('#000000', background) ? '#ffffff' : '#000000';
}

/** Lower-case '#rrggbb' for every key, and only the 13 keys (the order of COLOR_KEYS). */
function normalizeTheme(theme: ThemeColors): ThemeColors {
  return Object.fromEntries(COLOR_KEYS.map((key) => [key, theme[key].toLowerCase()])) as ThemeColors;
}

export function normalizeColorSettings(colors: ColorSettings): ColorSettings {
  return { light_theme: normalizeTheme(colors.light_theme), dark_theme: normalizeTheme(colors.dark_theme) };
}

/**
 * The saved palettes, else the defaults. A stored palette missing a key (never written by this code, but
 * the column is plain jsonb) takes that key from the default.
 */
export function effectiveColors(saved: ColorSettings | null): ColorSettings {
  if (!saved) return DEFAULT_COLOR_SETTINGS;
  return {
    light_theme: { ...DEFAULT_COLOR_SETTINGS.light_theme, ...saved.light_theme },
    dark_theme: { ...DEFAULT_COLOR_SETTINGS.dark_theme, ...saved.dark_theme },
  };
}

/**
 * A new accent colour becomes the primary colour of both themes (the spec: after saving settings the
 * primary colour is applied at once), with its focus ring, and the text on it turns white or black for
 * contrast. Colour Settings can still set each theme's primary afterwards: the last save wins.
 */
export function withAccentAsPrimary(colors: ColorSettings, accent: string): ColorSettings {
  const primary = accent.toLowerCase();
  const onPrimary = readableTextOn(primary);
  const apply = (theme: ThemeColors): ThemeColors => ({
    ...theme,
    primary,
    primary_foreground: onPrimary,
    ring: primary,
  });
  return { light_theme: apply(colors.light_theme), dark_theme: apply(colors.dark_theme) };
}

/** The keys whose value differs, as 'light_theme.primary'. */
export function changedColorKeys(before: ColorSettings, after: ColorSettings): string[] {
  const changed: string[] = [];
  for (const theme of ['light_theme', 'dark_theme'] as const) {
    for (const key of COLOR_KEYS) {
      if (before[theme][key].toLowerCase() !== after[theme][key].toLowerCase())
        changed.push(`${theme}.${key}`);
    }
  }
  return changed;
}
