import {
  COLOR_KEYS,
  type ColorSettings,
  DEFAULT_ACCENT_COLOR,
  DEFAULT_COLOR_SETTINGS,
  HEX_COLOR_PATTERN,
  type PlatformAppearance,
} from '@contracts/platform-appearance';
import { create } from 'zustand';

/** The last appearance seen, so that the next page load starts in it instead of flashing the defaults. */
export const APPEARANCE_STORAGE_KEY = 'appearance';

export const DEFAULT_APPEARANCE: PlatformAppearance = {
  logoUrl: null,
  faviconUrl: null,
  accentColor: DEFAULT_ACCENT_COLOR,
  colors: DEFAULT_COLOR_SETTINGS,
  updatedAt: null,
};

const isHex = (value: unknown): value is string => typeof value === 'string' && HEX_COLOR_PATTERN.test(value);

/** Same-origin paths and https only, as the server stores them. */
export function isShownAssetUrl(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    ((value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')) ||
      value.startsWith('https://'))
  );
}

function isThemeColors(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    COLOR_KEYS.every((key) => isHex((value as Record<string, unknown>)[key]))
  );
}

/** A complete appearance, or null: anything read from storage or the network is checked before use. */
export function parseAppearance(value: unknown): PlatformAppearance | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<PlatformAppearance>;
  const colors = v.colors as Partial<ColorSettings> | undefined;
  if (
    !isHex(v.accentColor) ||
    !colors ||
    !isThemeColors(colors.light_theme) ||
    !isThemeColors(colors.dark_theme)
  )
    return null;
  if (v.logoUrl !== null && !isShownAssetUrl(v.logoUrl)) return null;
  if (v.faviconUrl !== null && !isShownAssetUrl(v.faviconUrl)) return null;
  return {
    logoUrl: v.logoUrl,
    faviconUrl: v.faviconUrl,
    accentColor: v.accentColor,
    colors: { light_theme: colors.light_theme!, dark_theme: colors.dark_theme! },
    updatedAt: typeof v.updatedAt === 'string' ? v.updatedAt : null,
  };
}

function readStored(): PlatformAppearance {
  try {
    const raw = localStorage.getItem(APPEARANCE_STORAGE_KEY);
    return (raw && parseAppearance(JSON.parse(raw))) || DEFAULT_APPEARANCE;
  } catch {
    return DEFAULT_APPEARANCE;
  }
}

interface AppearanceState {
  appearance: PlatformAppearance;
  /** Replaces the appearance (an answer or an event); remembered for the next page load. */
  setAppearance: (appearance: PlatformAppearance) => void;
}

export const useAppearanceStore = create<AppearanceState>((set, get) => ({
  appearance: readStored(),
  setAppearance(appearance) {
    // The same look again (a reload, a resync) changes nothing: no new theme, no re-render.
    if (JSON.stringify(appearance) === JSON.stringify(get().appearance)) return;
    try {
      localStorage.setItem(APPEARANCE_STORAGE_KEY, JSON.stringify(appearance));
    } catch {
      // Storage can be unavailable (private mode): the appearance still applies to this tab.
    }
    set({ appearance });
  },
}));

export function useAppearance(): PlatformAppearance {
  return useAppearanceStore((s) => s.appearance);
}
