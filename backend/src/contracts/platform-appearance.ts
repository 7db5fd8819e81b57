/**
 * The installation's look, set by superadmins (Platform Admin → Settings and Colors) and applied live:
 * `GET /api/appearance` (public: the sign-in page shows it too) and the `platform.appearance_updated` event.
 */

/** The 13 colour keys of each theme (the spec's `admin_settings.color_settings`). */
export const COLOR_KEYS = [
  'background',
  'foreground',
  'primary',
  'primary_foreground',
  'secondary',
  'secondary_foreground',
  'accent',
  'accent_foreground',
  'muted',
  'muted_foreground',
  'border',
  'input',
  'ring',
] as const;

export type ColorKey = (typeof COLOR_KEYS)[number];

/** Every value '#RRGGBB'. */
export type ThemeColors = Record<ColorKey, string>;

export interface ColorSettings {
  light_theme: ThemeColors;
  dark_theme: ThemeColors;
}

/** Used when nothing is saved. Text on its background is at least WCAG AA (4.5:1) in both themes. */
export const DEFAULT_COLOR_SETTINGS: ColorSettings = {
  light_theme: {
    background: '#ffffff',
    foreground: '#1f2330',
    primary: '#5c6ac4',
    primary_foreground: '#ffffff',
    secondary: '#f1f2f8',
    secondary_foreground: '#1f2330',
    accent: '#eef0fb',
    accent_foreground: '#2e3a8c',
    muted: '#f4f5f7',
    muted_foreground: '#5f6470',
    border: '#e2e4ea',
    input: '#d5d8e0',
    ring: '#5c6ac4',
  },
  dark_theme: {
    background: '#12141a',
    foreground: '#e8eaf0',
    primary: '#356ded',
    primary_foreground: '#ffffff',
    secondary: '#1e2230',
    secondary_foreground: '#e8eaf0',
    accent: '#232a40',
    accent_foreground: '#c9d4ff',
    muted: '#1a1d26',
    muted_foreground: '#a3a9b8',
    border: '#2c3140',
    input: '#343a4b',
    ring: '#356ded',
  },
};

/** The spec's default accent colour. */
export const DEFAULT_ACCENT_COLOR = '#9b87f5';

/** GET /api/appearance, and the payload of `platform.appearance_updated`. */
export interface PlatformAppearance {
  /** null: the built-in logo. An https URL or a same-origin path. */
  logoUrl: string | null;
  faviconUrl: string | null;
  accentColor: string;
  /** Always complete: saved values, else the defaults. */
  colors: ColorSettings;
  updatedAt: string | null;
}

/** Every colour of the appearance: '#' and six hex digits. */
export const HEX_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** The spec's message for a colour that is not '#RRGGBB' (Colors and the accent colour alike). */
export const INVALID_COLOR_MESSAGE = 'Invalid color format. Please use valid hex colors (e.g. #000000)';

/** The longest logo or favicon address accepted. */
export const MAX_ASSET_URL_LENGTH = 2048;

/**
 * PUT /api/admin/settings (superadmins). `logoUrl`/`faviconUrl`: an https URL, a same-origin path
 * ('/api/files/…' after an upload), or null/'' for the built-in one. Saving a new accent colour also
 * makes it the primary colour of both themes (its text colour chosen for contrast).
 */
export interface UpdatePlatformSettingsRequest {
  logoUrl: string | null;
  faviconUrl: string | null;
  accentColor: string;
}

/** PUT /api/admin/colors (superadmins): both palettes, all 13 keys each. */
export type UpdateColorSettingsRequest = ColorSettings;

/** POST /api/admin/settings/logo and /favicon: the stored image's same-origin address, for the form. */
export interface UploadedAssetResponse {
  url: string;
}
