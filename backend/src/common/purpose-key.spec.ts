import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { purposeKeyBytes, SealedBox } from './purpose-key';

const SECRET = 'a'.repeat(48);

describe('purpose keys and sealed boxes', () => {
  it('derives one key per purpose, the same bytes as the stores sealed before it existed', () => {
    const invitation = purposeKeyBytes(SECRET, 'invitation-link-token-v1');
    expect(invitation).toEqual(
      Buffer.from(hkdfSync('sha256', SECRET, 'switchboard', 'invitation-link-token-v1', 32)),
    );
    expect(invitation).toHaveLength(32);
    expect(purposeKeyBytes(SECRET, 'attachment-link-v1')).not.toEqual(invitation);
    expect(purposeKeyBytes('b'.repeat(48), 'invitation-link-token-v1')).not.toEqual(invitation);
  });

  it('opens what an earlier sealing wrote (iv.body.tag, base64url)', () => {
    const key = purposeKeyBytes(SECRET, 'sso-client-secret-v1');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('company-1', 'utf8'));
    const body = Buffer.concat([cipher.update('s3cret', 'utf8'), cipher.final()]);
    const sealed = [iv, body, cipher.getAuthTag()].map((p) => p.toString('base64url')).join('.');
    expect(new SealedBox(SECRET, 'sso-client-secret-v1').open(sealed, 'company-1')).toBe('s3cret');
  });

  it('binds a sealed value to its context and refuses anything tampered or malformed', () => {
    const box = new SealedBox(SECRET, 'sso-client-secret-v1');
    const sealed = box.seal('s3cret', 'company-1');
    expect(box.open(sealed, 'company-1')).toBe('s3cret');
    expect(box.open(sealed, 'company-2')).toBeNull();
    expect(box.open(sealed)).toBeNull();
    expect(new SealedBox(SECRET, 'invitation-link-token-v1').open(sealed, 'company-1')).toBeNull();
    const [iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(box.open([iv, flipped.toString('base64url'), tag].join('.'), 'company-1')).toBeNull();
    expect(box.open(`${sealed}.extra`, 'company-1')).toBeNull();
    expect(box.open('not sealed', 'company-1')).toBeNull();
    const plain = new SealedBox(SECRET, 'invitation-link-token-v1');
    expect(plain.open(plain.seal('token'))).toBe('token');
  });
});
