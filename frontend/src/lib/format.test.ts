import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatMessageTime,
  formatPreview,
  formatShortRelative,
  formatStoredBytes,
} from './format';

describe('chat row preview', () => {
  it('cuts the last message to 30 characters followed by ...', () => {
    const long = 'abcdefghijklmnopqrstuvwxyz0123456789';
    expect(formatPreview(long)).toBe('abcdefghijklmnopqrstuvwxyz0123...');
    expect(formatPreview(long).length).toBe(33);
  });

  it('keeps a short message whole and says when there is none', () => {
    expect(formatPreview('Hello there')).toBe('Hello there');
    expect(formatPreview('x'.repeat(30))).toBe('x'.repeat(30));
    expect(formatPreview(null)).toBe('No messages yet');
    expect(formatPreview('   ')).toBe('No messages yet');
  });

  it('shows a multi-line message on one line', () => {
    expect(formatPreview('first\nsecond')).toBe('first second');
  });

  it('previews the plain text of a Markdown message', () => {
    expect(formatPreview('> You said: **hello**')).toBe('You said: hello');
    expect(formatPreview('# Title\n\n- [a link](https://example.com) and `code`')).toBe(
      'Title a link and code',
    );
    expect(formatPreview('_nice_ ~~old~~')).toBe('nice old');
  });
});

describe('message time', () => {
  const now = '2024-05-01T12:00:00Z';

  it("drops the word 'ago'", () => {
    expect(formatMessageTime('2024-05-01T11:55:00Z', now)).toBe('5 minutes');
    expect(formatMessageTime('2024-05-01T09:00:00Z', now)).toBe('3 hours');
    expect(formatMessageTime('2024-05-01T11:59:58Z', now)).toBe('a few seconds');
    expect(formatMessageTime('2024-04-28T12:00:00Z', now)).not.toMatch(/ago/);
  });

  it('never reads as a future time', () => {
    expect(formatMessageTime('2024-05-01T12:00:05Z', now)).toBe('a few seconds');
  });
});

describe('chat row time', () => {
  const now = '2024-05-01T12:00:00Z';
  it('is short', () => {
    expect(formatShortRelative('2024-05-01T11:59:40Z', now)).toBe('now');
    expect(formatShortRelative('2024-05-01T11:45:00Z', now)).toBe('15m');
    expect(formatShortRelative('2024-05-01T07:00:00Z', now)).toBe('5h');
    expect(formatShortRelative('2024-04-29T12:00:00Z', now)).toBe('2d');
    expect(formatShortRelative(null, now)).toBe('');
  });
});

describe('stored bytes', () => {
  it('shows used / limit, or that there is no limit', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatStoredBytes({ storedBytesUsed: 1024 * 1024, storedBytesLimit: 1024 ** 3 })).toBe(
      '1 MB / 1 GB',
    );
    expect(formatStoredBytes({ storedBytesUsed: 0, storedBytesLimit: null })).toBe('0 B (no limit)');
  });
});
