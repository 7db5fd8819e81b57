import { StyleProvider } from '@ant-design/cssinjs';
import { render } from '@testing-library/react';
import { Button, ConfigProvider, theme } from 'antd';
import { useLayoutEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepStyleCache, pinThemeEntries, restoredStyleCache } from './styleCache';

const STORAGE_KEY = 'sb-antd-style-cache';

declare const __THEME_CACHE_KEY__: string;

/** What a stored cache holds: [key path, value] pairs. */
function stored(): { version: string; entries: Array<[string, unknown]> } {
  return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as never;
}

/** A page load: a new cache from storage, antd rendering a button in a theme whose algorithm is `algorithm`. */
function pageLoad(algorithm: typeof theme.defaultAlgorithm) {
  const cache = restoredStyleCache();
  const view = render(
    <StyleProvider cache={cache}>
      <ConfigProvider
        theme={{
          algorithm,
          token: { colorPrimary: '#5c6ac4' },
          zeroRuntime: true,
          cssVar: { key: 'sb-theme' },
        }}
      >
        <Button type="primary">Send</Button>
      </ConfigProvider>
    </StyleProvider>,
  );
  return { cache, view };
}

describe("antd's computed theme kept across page loads", () => {
  afterEach(() => localStorage.clear());

  it('is computed on the first load, kept, and found by the next load without computing it again', () => {
    // One function, so antd's theme (cached by its algorithm) is the same object on both loads.
    const algorithm = vi.fn(theme.defaultAlgorithm);

    const first = pageLoad(algorithm);
    expect(algorithm).toHaveBeenCalled();
    keepStyleCache(first.cache);
    const kept = stored();
    expect(kept.version).toBe(__THEME_CACHE_KEY__);
    expect(kept.entries.some(([path]) => path.startsWith('token%'))).toBe(true);
    expect(kept.entries.some(([path]) => path.startsWith('cssVar%Button%'))).toBe(true);
    const cssVariables = [...document.head.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    first.view.unmount();

    algorithm.mockClear();
    const second = pageLoad(algorithm);
    expect(algorithm).not.toHaveBeenCalled();
    // The same CSS variables are written for the page.
    const again = [...document.head.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(again).toContain('--ant-color-primary:#5c6ac4');
    expect(again).toBe(cssVariables);
    second.view.unmount();
  });

  it('keeps the variables of the theme switched to, when the theme left came from storage', () => {
    const light = vi.fn(theme.defaultAlgorithm);
    const first = pageLoad(light);
    keepStyleCache(first.cache);
    first.view.unmount();

    // As AppProviders does: the cache from storage, its theme entries held after each theme is shown.
    const cache = restoredStyleCache();
    function App({ dark }: { dark: boolean }) {
      const config = dark
        ? { algorithm: theme.darkAlgorithm, token: { colorPrimary: '#356ded' } }
        : { algorithm: light, token: { colorPrimary: '#5c6ac4' } };
      useLayoutEffect(() => pinThemeEntries(cache), [dark]);
      return (
        <StyleProvider cache={cache}>
          <ConfigProvider theme={{ ...config, zeroRuntime: true, cssVar: { key: 'sb-theme' } }}>
            <Button type="primary">Send</Button>
          </ConfigProvider>
        </StyleProvider>
      );
    }
    light.mockClear();
    const view = render(<App dark={false} />);
    expect(light).not.toHaveBeenCalled();
    view.rerender(<App dark />);
    const styles = () => [...document.head.querySelectorAll('style')].map((s) => s.textContent ?? '');
    // The dark theme's variables (its container colour), and the button's.
    expect(
      styles().some(
        (css) => css.startsWith('.sb-theme{') && css.includes('--ant-color-bg-container:#141414'),
      ),
    ).toBe(true);
    expect(styles().some((css) => css.startsWith('.sb-theme.ant-btn{'))).toBe(true);
    view.unmount();
  });

  it('keeps the variables of a stored theme switched to from one computed on this page', () => {
    // The dark theme was kept by an earlier load; this one starts in a light theme it computes.
    const dark = { algorithm: theme.darkAlgorithm, token: { colorPrimary: '#356ded' } };
    const earlier = restoredStyleCache();
    render(
      <StyleProvider cache={earlier}>
        <ConfigProvider theme={{ ...dark, zeroRuntime: true, cssVar: { key: 'sb-theme' } }}>
          <Button type="primary">Send</Button>
        </ConfigProvider>
      </StyleProvider>,
    ).unmount();
    keepStyleCache(earlier);

    const cache = restoredStyleCache();
    function App({ isDark }: { isDark: boolean }) {
      const config = isDark
        ? dark
        : { algorithm: theme.defaultAlgorithm, token: { colorPrimary: '#5c6ac4' } };
      useLayoutEffect(() => pinThemeEntries(cache), [isDark]);
      return (
        <StyleProvider cache={cache}>
          <ConfigProvider theme={{ ...config, zeroRuntime: true, cssVar: { key: 'sb-theme' } }}>
            <Button type="primary">Send</Button>
          </ConfigProvider>
        </StyleProvider>
      );
    }
    const view = render(<App isDark={false} />);
    view.rerender(<App isDark />);
    const styles = [...document.head.querySelectorAll('style')].map((s) => s.textContent ?? '');
    expect(
      styles.some((css) => css.startsWith('.sb-theme{') && css.includes('--ant-color-bg-container:#141414')),
    ).toBe(true);
    expect(styles.some((css) => css.startsWith('.sb-theme.ant-btn{'))).toBe(true);
    view.unmount();
  });

  it('computes again what another build kept, or what it cannot read', () => {
    const algorithm = vi.fn(theme.defaultAlgorithm);
    pageLoad(algorithm).view.unmount();
    const first = restoredStyleCache();
    pageLoad(algorithm).view.unmount();
    keepStyleCache(first);

    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored(), version: 'another build' }));
    algorithm.mockClear();
    const cache = restoredStyleCache();
    expect(cache.get(['anything'])).toBeNull();
    render(
      <StyleProvider cache={cache}>
        <ConfigProvider theme={{ algorithm, zeroRuntime: true }}>
          <Button>Send</Button>
        </ConfigProvider>
      </StyleProvider>,
    ).unmount();
    expect(algorithm).toHaveBeenCalled();

    localStorage.setItem(STORAGE_KEY, '{not json');
    expect(() => restoredStyleCache()).not.toThrow();
  });

  it('keeps only the theme and CSS-variable entries, adds new ones to the kept ones, and stops at 80', () => {
    const cache = restoredStyleCache();
    cache.opUpdate('token%a', () => [1, { colorPrimary: '#000' }]);
    cache.opUpdate('cssVar%Button%a', () => [1, ['--x:1']]);
    cache.opUpdate('style%Button%a', () => [1, ['.x{}']]);
    keepStyleCache(cache);
    expect(stored().entries.map(([path]) => path)).toEqual(['token%a', 'cssVar%Button%a']);

    const next = restoredStyleCache();
    // Held once by the store (pinThemeEntries).
    expect(next.get(['token', 'a'])).toEqual([1, { colorPrimary: '#000' }]);
    for (let i = 0; i < 100; i++) next.opUpdate(`cssVar%Tag%${i}`, () => [1, ['--y:1']]);
    keepStyleCache(next);
    const paths = stored().entries.map(([path]) => path);
    expect(paths).toHaveLength(80);
    expect(paths.at(-1)).toBe('cssVar%Tag%99');

    // A theme's tokens are large: the four latest themes' are kept.
    const themes = restoredStyleCache();
    for (let i = 0; i < 6; i++) themes.opUpdate(`token%${i}`, () => [1, { i }]);
    keepStyleCache(themes);
    expect(
      stored()
        .entries.filter(([path]) => path.startsWith('token%'))
        .map(([path]) => path),
    ).toEqual(['token%2', 'token%3', 'token%4', 'token%5']);
  });
});
