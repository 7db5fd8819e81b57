/** Colour arithmetic for the appearance: '#rrggbb' in, CSS triples and contrast out. */

interface Hsl {
  h: number;
  s: number;
  l: number;
}

function rgbOf(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

export function hexToHsl(hex: string): Hsl {
  const [r, g, b] = rgbOf(hex).map((c) => c / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l: l * 100 };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  h *= 60;
  if (h < 0) h += 360;
  return { h, s: s * 100, l: l * 100 };
}

export function hslToHex({ h, s, l }: Hsl): string {
  const sat = s / 100;
  const light = l / 100;
  const c = (1 - Math.abs(2 * light - 1)) * sat;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = light - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return `#${[r, g, b]
    .map((v) =>
      Math.round((v + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

const round1 = (n: number) => String(Math.round(n * 10) / 10);

/** The spec's CSS-variable form of a colour: 'H S% L%' (e.g. '252 85.2% 74.5%'), for `hsl(var(--x))`. */
export function hslTriple(hex: string): string {
  const { h, s, l } = hexToHsl(hex);
  return `${round1(h)} ${round1(s)}% ${round1(l)}%`;
}

/** WCAG relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour, darkened on a light background or lightened on a dark one just enough to reach `ratio`
 * against it (hue and saturation kept): for text and links drawn in a brand colour.
 */
export function ensureContrast(color: string, background: string, ratio = 4.5): string {
  if (contrastRatio(color, background) >= ratio) return color;
  const hsl = hexToHsl(color);
  const towardsDark = luminance(background) > 0.18;
  for (let step = 1; step <= 100; step++) {
    const l = towardsDark ? hsl.l - step : hsl.l + step;
    if (l < 0 || l > 100) break;
    const candidate = hslToHex({ ...hsl, l });
    if (contrastRatio(candidate, background) >= ratio) return candidate;
  }
  return towardsDark ? '#000000' : '#ffffff';
}

/** A CSS colour as antd's tokens give it ('#rgb', '#rrggbb', '#rrggbbaa', 'rgb()' or 'rgba()'): RGB 0-255 and alpha 0-1. */
function parseCssColor(color: string): { rgb: [number, number, number]; alpha: number } {
  const value = color.trim().toLowerCase();
  const fn = /^rgba?\(([^)]+)\)$/.exec(value);
  if (fn) {
    const [r = 0, g = 0, b = 0, a = 1] = fn[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return { rgb: [r, g, b], alpha: a };
  }
  let hex = value.replace('#', '');
  if (hex.length === 3 || hex.length === 4) hex = [...hex].map((d) => d + d).join('');
  const bytes = [0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return {
    rgb: [bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0],
    alpha: Number.isNaN(bytes[3] ?? NaN) ? 1 : (bytes[3] as number) / 255,
  };
}

/** `color` (possibly translucent) painted over the solid `background`, as '#rrggbb'. */
export function flattenColor(color: string, background: string): string {
  const top = parseCssColor(color);
  const bottom = parseCssColor(background).rgb;
  return `#${top.rgb
    .map((c, i) =>
      Math.round(c * top.alpha + (bottom[i] ?? 0) * (1 - top.alpha))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * Like `ensureContrast`, against every background at once (text that appears on several surfaces): darkened
 * when the first background is light, lightened when it is dark, until the ratio holds on all of them.
 */
export function ensureContrastOnAll(color: string, backgrounds: string[], ratio = 4.5): string {
  const readable = (candidate: string) => backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio);
  if (readable(color)) return color;
  const hsl = hexToHsl(color);
  const towardsDark = luminance(backgrounds[0] ?? '#ffffff') > 0.18;
  for (let step = 1; step <= 100; step++) {
    const l = towardsDark ? hsl.l - step : hsl.l + step;
    if (l < 0 || l > 100) break;
    const candidate = hslToHex({ ...hsl, l });
    if (readable(candidate)) return candidate;
  }
  return towardsDark ? '#000000' : '#ffffff';
}
