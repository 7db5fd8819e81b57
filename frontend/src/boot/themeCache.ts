import type { ColorSettings } from '@contracts/platform-appearance';
import { theme, type ThemeConfig } from 'antd';
import type { ResolvedTheme } from '../stores/themeStore';
import { buildThemeConfig } from './theme';

/**
 * Set at build time (vite.config.ts) from the sources of the theme mapping and antd's version: a cached
 * theme made by other code is never used.
 */
declare const __THEME_CACHE_KEY__: string;

/**
 * buildThemeConfig derives antd's tokens again and again while it nudges colours to a readable contrast,
 * on the first render of every page load (what keeping it buys: README.md). Its result depends only on
 * the theme and the palette, so it is kept: in memory
 * (a theme switch back and forth, the appearance answer bringing the same palette) and in localStorage,
 * so a returning visitor's first render skips it.
 */
const STORAGE_KEY = 'sb-theme-config';
const MAX_STORED = 4;

type Stored = Omit<ThemeConfig, 'algorithm'>;
interface StoredCache {
  version: string;
  entries: Array<[string, Stored]>;
}

const memory = new Map<string, ThemeConfig>();

const algorithmOf = (resolved: ResolvedTheme) =>
  resolved === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm;

function readStored(): StoredCache | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredCache | null;
    if (parsed?.version !== __THEME_CACHE_KEY__ || !Array.isArray(parsed.entries)) return null;
    return parsed;
  } catch {
    // Unreadable or unavailable storage: computed again.
    return null;
  }
}

function store(key: string, config: ThemeConfig): void {
  try {
    const entries = (readStored()?.entries ?? []).filter(([k]) => k !== key);
    const { algorithm: _algorithm, ...rest } = config;
    entries.unshift([key, rest]);
    const cache: StoredCache = { version: __THEME_CACHE_KEY__, entries: entries.slice(0, MAX_STORED) };
    localStorage.setItem(STORAGE_KEY, JSON.stringify(cache));
  } catch {
    // Storage full or unavailable: kept in memory only.
  }
}

/** buildThemeConfig's answer, from memory, from this browser's storage, or computed (and kept). */
export function themeConfigFor(resolved: ResolvedTheme, colors: ColorSettings): ThemeConfig {
  const key = `${resolved}:${JSON.stringify(colors)}`;
  const known = memory.get(key);
  if (known) return known;
  const stored = readStored()?.entries.find(([k]) => k === key)?.[1];
  const config =
    stored && typeof stored.token === 'object' && stored.token
      ? { ...stored, algorithm: algorithmOf(resolved) }
      : buildThemeConfig(resolved, colors);
  memory.set(key, config);
  if (!stored) store(key, config);
  return config;
}
