import { DEFAULT_COLOR_SETTINGS } from '@contracts/platform-appearance';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildThemeConfig } from './theme';

const STORAGE_KEY = 'sb-theme-config';

/** A fresh copy of the module: nothing in its memory, only what localStorage holds. */
async function freshCache() {
  vi.resetModules();
  return import('./themeCache');
}

describe('themeConfigFor', () => {
  afterEach(() => localStorage.clear());

  it("answers what buildThemeConfig does, with the theme's algorithm", async () => {
    const { themeConfigFor } = await freshCache();
    const dark = themeConfigFor('dark', DEFAULT_COLOR_SETTINGS);
    expect(dark).toEqual(buildThemeConfig('dark', DEFAULT_COLOR_SETTINGS));
    expect(dark.algorithm).toBe(theme.darkAlgorithm);
    expect(themeConfigFor('dark', DEFAULT_COLOR_SETTINGS)).toBe(dark);
  });

  it('serves a later page load from localStorage, and recomputes what another build stored', async () => {
    const first = await freshCache();
    const light = first.themeConfigFor('light', DEFAULT_COLOR_SETTINGS);

    // What the next page load finds: the stored config, used as it is (here marked to tell it apart).
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as {
      version: string;
      entries: Array<[string, { token: Record<string, unknown> }]>;
    };
    expect(stored.entries).toHaveLength(1);
    stored.entries[0][1].token.colorLink = '#123456';
    localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
    const second = await freshCache();
    const reloaded = second.themeConfigFor('light', DEFAULT_COLOR_SETTINGS);
    expect(reloaded.token?.colorLink).toBe('#123456');
    expect(reloaded.algorithm).toBe(theme.defaultAlgorithm);

    // Stored by other code (another version): computed again.
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored, version: 'other' }));
    const third = await freshCache();
    expect(third.themeConfigFor('light', DEFAULT_COLOR_SETTINGS).token).toEqual(light.token);

    // Unreadable: computed again.
    localStorage.setItem(STORAGE_KEY, '{not json');
    const fourth = await freshCache();
    expect(fourth.themeConfigFor('light', DEFAULT_COLOR_SETTINGS).token).toEqual(light.token);
  });

  it('keeps the last four palettes', async () => {
    const { themeConfigFor } = await freshCache();
    for (const primary of ['#111111', '#222222', '#333333', '#444444', '#555555'])
      themeConfigFor('light', {
        ...DEFAULT_COLOR_SETTINGS,
        light_theme: { ...DEFAULT_COLOR_SETTINGS.light_theme, primary },
      });
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { entries: unknown[] };
    expect(stored.entries).toHaveLength(4);
  });
});
