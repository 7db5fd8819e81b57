import {
  COLOR_KEYS,
  type ColorSettings,
  type PlatformAppearance,
  type ThemeColors,
} from '@contracts/platform-appearance';
import { hslTriple } from '../../../lib/color';

const STYLE_ID = 'sb-appearance';
export const BUILT_IN_FAVICON = '/logo.svg';

/** '--primary-foreground' for 'primary_foreground'. */
export const cssVariableName = (key: string): string => `--${key.replace(/_/g, '-')}`;

function block(selector: string, theme: ThemeColors): string {
  const lines = COLOR_KEYS.map((key) => `  ${cssVariableName(key)}: ${hslTriple(theme[key])};`);
  return `${selector} {\n${lines.join('\n')}\n}`;
}

/**
 * Both themes' variables in the spec's 'H S% L%' form: the light ones on :root, the dark ones where
 * the theme switch puts data-theme="dark". Switching the theme changes one attribute, nothing else.
 */
export function appearanceCss(colors: ColorSettings): string {
  return `${block(':root', colors.light_theme)}\n${block(":root[data-theme='dark']", colors.dark_theme)}\n`;
}

/** Writes the colour variables and the favicon of the appearance into the page. */
export function applyAppearanceToDocument(appearance: PlatformAppearance, doc: Document = document): void {
  let style = doc.getElementById(STYLE_ID);
  if (!style) {
    style = doc.createElement('style');
    style.id = STYLE_ID;
    doc.head.appendChild(style);
  }
  const css = appearanceCss(appearance.colors);
  if (style.textContent !== css) style.textContent = css;

  const href = appearance.faviconUrl ?? BUILT_IN_FAVICON;
  let icons = [...doc.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')];
  if (icons.length === 0) {
    const link = doc.createElement('link');
    link.rel = 'icon';
    doc.head.appendChild(link);
    icons = [link];
  }
  for (const icon of icons) {
    if (icon.getAttribute('href') === href) continue;
    icon.setAttribute('href', href);
    if (appearance.faviconUrl) icon.removeAttribute('type');
    else icon.type = 'image/svg+xml';
  }
}
