import { describe, expect, it } from 'vitest';
import { exportFileName } from './useChatExport';

describe('exportFileName', () => {
  it("names the file as the server's Content-Disposition does: ASCII letters, digits and dashes", () => {
    expect(exportFileName('Trip: "Hydra" / Égine?', 'md')).toBe('Trip-Hydra-Egine.md');
    expect(exportFileName('../../etc/passwd', 'json')).toBe('etcpasswd.json');
    expect(exportFileName('日本語', 'md')).toBe('chat.md');
  });
});
