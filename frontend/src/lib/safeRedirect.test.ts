import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safeRedirect';

const ORIGIN = 'https://switchboard.example';

describe('safeRedirectPath', () => {
  it.each([
    ['/chat', '/chat'],
    ['/company/admin?company=c1', '/company/admin?company=c1'],
    ['/invitation?token=abc&redirect=%2Fchat#x', '/invitation?token=abc&redirect=%2Fchat#x'],
  ])('keeps the same-origin path %s', (raw, expected) => {
    expect(safeRedirectPath(raw, ORIGIN)).toBe(expected);
  });

  it.each([
    null,
    '',
    'chat',
    'https://evil.example/chat',
    '//evil.example/chat',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/%0a/evil.example'.replace('%0a', '\n'),
    ' /chat',
    '/\t/evil.example',
    'http:/evil.example',
  ])('refuses %j', (raw) => {
    expect(safeRedirectPath(raw, ORIGIN)).toBeNull();
  });
});
