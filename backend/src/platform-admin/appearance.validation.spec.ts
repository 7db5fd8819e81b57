import { COLOR_KEYS, DEFAULT_COLOR_SETTINGS, MAX_ASSET_URL_LENGTH } from '../contracts/platform-appearance';
import {
  changedColorKeys,
  contrastRatio,
  effectiveColors,
  readableTextOn,
  withAccentAsPrimary,
} from './appearance.colors';
import { toAppearance } from './appearance.service';
import { isSafeAssetUrl, normalizeAssetUrl, uploadedFileId } from './appearance.validation';

describe('logo and favicon addresses', () => {
  it.each([
    'https://cdn.example.com/brand/logo.png',
    'https://example.com/logo.png?v=2#x',
    'https://例え.jp/logo.png',
    '/api/files/7d0c6c5e-1111-4000-8000-000000000000',
    '/logo.svg',
  ])('accepts %s', (url) => expect(isSafeAssetUrl(url)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
    'http://example.com/logo.png',
    'ftp://example.com/logo.png',
    'blob:https://example.com/123',
    '//evil.example/logo.png',
    '/\\evil.example/logo.png',
    'https://user:secret@example.com/logo.png',
    'https:/example.com',
    'https://example.com/a b.png',
    ' https://example.com/logo.png',
    'logo.png',
    `https://example.com/${'a'.repeat(MAX_ASSET_URL_LENGTH)}`,
    '',
  ])('refuses %j', (url) => expect(isSafeAssetUrl(url)).toBe(false));

  it('reads blank as the built-in image and finds our own uploads', () => {
    expect(normalizeAssetUrl('   ')).toBeNull();
    expect(normalizeAssetUrl(null)).toBeNull();
    expect(normalizeAssetUrl(' /x.png ')).toBe('/x.png');
    expect(uploadedFileId('/api/files/7D0C6C5E-1111-4000-8000-000000000000')).toBe(
      '7d0c6c5e-1111-4000-8000-000000000000',
    );
    expect(uploadedFileId('/api/files/7d0c6c5e-1111-4000-8000-000000000000/x')).toBeNull();
    expect(uploadedFileId('https://example.com/api/files/7d0c6c5e-1111-4000-8000-000000000000')).toBeNull();
  });
});

describe('colours', () => {
  it('keeps text of the default palettes legible (WCAG AA, 4.5:1) in both themes', () => {
    for (const theme of [DEFAULT_COLOR_SETTINGS.light_theme, DEFAULT_COLOR_SETTINGS.dark_theme]) {
      const pairs: Array<[string, string]> = [
        ['foreground', 'background'],
        ['primary_foreground', 'primary'],
        ['secondary_foreground', 'secondary'],
        ['accent_foreground', 'accent'],
        ['muted_foreground', 'muted'],
        ['muted_foreground', 'background'],
      ];
      for (const [text, bg] of pairs) {
        const ratio = contrastRatio(theme[text as keyof typeof theme], theme[bg as keyof typeof theme]);
        expect({ text, bg, ok: ratio >= 4.5 }).toEqual({ text, bg, ok: true });
      }
    }
    expect(DEFAULT_COLOR_SETTINGS.light_theme.primary).toBe('#5c6ac4');
    expect(DEFAULT_COLOR_SETTINGS.dark_theme.primary).toBe('#356ded');
  });

  it('makes a new accent the primary of both themes, with readable text on it', () => {
    const colors = withAccentAsPrimary(DEFAULT_COLOR_SETTINGS, '#9B87F5');
    expect(colors.light_theme).toMatchObject({
      primary: '#9b87f5',
      ring: '#9b87f5',
      primary_foreground: '#000000',
    });
    expect(colors.dark_theme).toMatchObject({ primary: '#9b87f5', primary_foreground: '#000000' });
    expect(withAccentAsPrimary(DEFAULT_COLOR_SETTINGS, '#1d3a8a').light_theme.primary_foreground).toBe(
      '#ffffff',
    );
    expect(colors.light_theme.background).toBe(DEFAULT_COLOR_SETTINGS.light_theme.background);
    expect(changedColorKeys(DEFAULT_COLOR_SETTINGS, colors)).toEqual([
      'light_theme.primary',
      'light_theme.primary_foreground',
      'light_theme.ring',
      'dark_theme.primary',
      'dark_theme.primary_foreground',
      'dark_theme.ring',
    ]);
  });

  it('answers the defaults when nothing is saved, and fills a stored palette missing a key', () => {
    expect(toAppearance(null)).toEqual({
      logoUrl: null,
      faviconUrl: null,
      accentColor: '#9b87f5',
      colors: DEFAULT_COLOR_SETTINGS,
      updatedAt: null,
    });
    const { ring: _ring, ...partial } = DEFAULT_COLOR_SETTINGS.dark_theme;
    const filled = effectiveColors({
      light_theme: DEFAULT_COLOR_SETTINGS.light_theme,
      dark_theme: partial as never,
    });
    expect(Object.keys(filled.dark_theme).sort()).toEqual([...COLOR_KEYS].sort());
    expect(readableTextOn('#ffffff')).toBe('#000000');
  });
});
