import { createCache } from '@ant-design/cssinjs';

/** Set at build time from the theme sources and antd's and its style engine's versions (vite.config.ts). */
declare const __THEME_CACHE_KEY__: string;

/**
 * antd's computed theme, kept across page loads.
 *
 * On the first render antd derives every token of the theme (palettes, sizes, the component tokens),
 * hashes them and turns them into CSS variables: ~40 ms of a warm /chat load on this machine, the same
 * result on every load of the same theme. antd's style engine keeps that result in a cache for the life
 * of the page, under a key made of everything it depends on (antd's version, the theme, the seed tokens,
 * the overrides, the variable prefix). Its entries for the theme's tokens and the components' CSS
 * variables are plain data: they are kept in this browser's storage and put back into a new cache before
 * the first render, so a returning visitor's first render finds them. A key that differs (another
 * palette, another antd) finds nothing and is computed as before.
 */

type StyleCache = ReturnType<typeof createCache>;
type Entry = [path: string, value: unknown];

const STORAGE_KEY = 'sb-antd-style-cache';
/** The entries kept: the theme's tokens and the components' CSS variables. */
const KEPT = /^(token|cssVar)%/;
const MAX_ENTRIES = 80;
const MAX_THEMES = 4;

interface Stored {
  version: string;
  entries: Entry[];
}

/** The engine's entries map (`[uses, value]` by key path); null if its shape is not the one known here. */
function entriesOf(cache: StyleCache): Map<string, [number, unknown]> | null {
  const map = (cache as unknown as { cache?: unknown }).cache;
  return map instanceof Map ? (map as Map<string, [number, unknown]>) : null;
}

function readStored(): Entry[] {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Stored | null;
    if (stored?.version !== __THEME_CACHE_KEY__ || !Array.isArray(stored.entries)) return [];
    return stored.entries.filter(
      (entry): entry is Entry => Array.isArray(entry) && typeof entry[0] === 'string' && KEPT.test(entry[0]),
    );
  } catch {
    // Unreadable or unavailable storage: computed again.
    return [];
  }
}

const THEME_ENTRY = /^token%/;
/** The theme entries held once by this module, per cache (pinThemeEntries). */
const pinned = new WeakMap<StyleCache, Set<string>>();

/** A new style cache holding what earlier page loads kept. */
export function restoredStyleCache(): StyleCache {
  const cache = createCache();
  if (!entriesOf(cache)) return cache;
  const held = new Set<string>();
  pinned.set(cache, held);
  for (const [path, value] of readStored()) {
    const theme = THEME_ENTRY.test(path);
    if (theme) held.add(path);
    cache.opUpdate(path, (known) => known ?? [theme ? 1 : 0, value]);
  }
  return cache;
}

/**
 * Holds every theme entry of the cache once more, so the engine never drops one.
 *
 * When a theme entry is no longer used (a theme switch), the engine removes every style element marked
 * with the theme's variable class, counting the themes computed under that class to keep the current
 * one's. A theme put back from storage was not computed, so that count missed it and the switch removed
 * the new theme's variables too. Held, a theme entry stays (a few per page, ~55 KB each); its variables'
 * style element is the one all themes of the class write to, so the current theme's stay on the page.
 */
export function pinThemeEntries(cache: StyleCache): void {
  const live = entriesOf(cache);
  if (!live) return;
  let held = pinned.get(cache);
  if (!held) pinned.set(cache, (held = new Set()));
  for (const path of live.keys()) {
    if (!THEME_ENTRY.test(path) || held.has(path)) continue;
    held.add(path);
    cache.opUpdate(path, (entry) => (entry ? [entry[0] + 1, entry[1]] : entry));
  }
}

/** Keeps this page's theme and variable entries (with the earlier ones, newest last) for the next load. */
export function keepStyleCache(cache: StyleCache): void {
  const live = entriesOf(cache);
  if (!live) return;
  const current: Entry[] = [...live]
    .filter(([path]) => KEPT.test(path))
    .map(([path, [, value]]) => [path, value]);
  const stored = readStored();
  const known = new Set(stored.map(([path]) => path));
  if (current.every(([path]) => known.has(path))) return;
  const paths = new Set(current.map(([path]) => path));
  // Newest last; a theme's tokens are ~55 KB of text, so only the last few themes' are kept.
  let themes = 0;
  const entries = [...stored.filter(([path]) => !paths.has(path)), ...current]
    .reverse()
    .filter(([path]) => !path.startsWith('token%') || ++themes <= MAX_THEMES)
    .slice(0, MAX_ENTRIES)
    .reverse();
  try {
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ version: __THEME_CACHE_KEY__, entries } satisfies Stored),
    );
  } catch {
    // Storage full or unavailable: computed again next time.
  }
}
