import {
  attachmentLinkKey,
  checkAttachmentLink,
  signAttachmentPath,
  userLinkExpiry,
} from './attachment-links';

const SECRET = 'x'.repeat(48);
const FILE = '3f1c2a9e-7b4d-4c1e-9a2b-5d6e7f8a9b0c';
/** 2100-01-01, Unix seconds. */
const EXPIRES = 4102444800;
/**
 * A link as the code before purposeKey signed it (its own HKDF call, same secret, file and expiry): one
 * handed out before a deploy must still open after it, until it expires.
 */
const SIGNED_BEFORE = 'YaMM394op1s7F2iDulAXEWyvC4D5qk5SlSiqgD2Mjvo';

describe('signed attachment links', () => {
  const key = attachmentLinkKey(SECRET);

  it('still accepts a link signed before the key came from purposeKey', () => {
    expect(checkAttachmentLink(key, FILE, String(EXPIRES), SIGNED_BEFORE)).toBe('valid');
    expect(signAttachmentPath(key, FILE, EXPIRES)).toBe(
      `/api/attachments/${FILE}?expires=${EXPIRES}&sig=${SIGNED_BEFORE}`,
    );
  });

  it('tells an expired link from a forged one, and binds the file and the expiry', () => {
    const path = new URL(signAttachmentPath(key, FILE, 1_000), 'http://x');
    const sig = path.searchParams.get('sig');
    expect(checkAttachmentLink(key, FILE, '1000', sig, 999)).toBe('valid');
    expect(checkAttachmentLink(key, FILE, '1000', sig, 1_001)).toBe('expired');
    expect(checkAttachmentLink(key, FILE, '1001', sig, 999)).toBe('invalid');
    expect(checkAttachmentLink(key, FILE.replace('3f', '4f'), '1000', sig, 999)).toBe('invalid');
    expect(checkAttachmentLink(attachmentLinkKey('y'.repeat(48)), FILE, '1000', sig, 999)).toBe('invalid');
    expect(checkAttachmentLink(key, FILE, '1000', undefined, 999)).toBe('invalid');
  });

  it('gives the chat screen links that last to the end of the next whole hour', () => {
    expect(userLinkExpiry(Date.UTC(2026, 0, 1, 10, 59))).toBe(Date.UTC(2026, 0, 1, 12) / 1000);
  });
});
