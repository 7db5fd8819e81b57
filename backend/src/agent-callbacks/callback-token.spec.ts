import {
  callbackTokenKey,
  mintCallbackToken,
  verifyCallbackToken,
  verifyCallbackTokenRound,
} from './callback-token';

describe('callback tokens (derived: version, expiry and an HMAC bound to the message)', () => {
  const key = callbackTokenKey('a JWT secret of at least thirty-two characters');
  const a = '0b6f1d9e-5c1a-4f3e-9a7b-2d4c6e8f0a1b';
  const b = '7e2a9c4d-1b3f-4a5e-8c6d-0f1e2d3c4b5a';
  const expiresAt = 1_900_000_000_123;
  const token = mintCallbackToken(key, a, expiresAt);

  it('is 43 base64url characters and gives back its expiry for its own message', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyCallbackToken(key, a, token)).toBe(expiresAt);
    // The id as the route may spell it.
    expect(verifyCallbackToken(key, a.toUpperCase(), token)).toBe(expiresAt);
  });

  it('differs for each expiry, to the millisecond: every delivery attempt carries a token of its own', () => {
    expect(mintCallbackToken(key, a, expiresAt + 1)).not.toBe(token);
    expect(verifyCallbackToken(key, a, mintCallbackToken(key, a, expiresAt + 1))).toBe(expiresAt + 1);
  });

  it('binds a token of a reply asked for again to its round, in the same 43 characters', () => {
    expect(verifyCallbackTokenRound(key, a, token)).toEqual({ expiresAtMs: expiresAt, round: 0 });
    const second = mintCallbackToken(key, a, expiresAt, 2);
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyCallbackTokenRound(key, a, second)).toEqual({ expiresAtMs: expiresAt, round: 2 });
    expect(verifyCallbackTokenRound(key, b, second)).toBeNull();
    // The round cannot be changed: it is under the MAC.
    const bytes = Buffer.from(second, 'base64url');
    bytes[9] ^= 1;
    expect(verifyCallbackTokenRound(key, a, bytes.toString('base64url'))).toBeNull();
  });

  it("refuses a token of message A for message B, and one made with another secret's key", () => {
    expect(verifyCallbackToken(key, b, token)).toBeNull();
    const otherKey = callbackTokenKey('another JWT secret of at least thirty-two characters');
    expect(verifyCallbackToken(otherKey, a, token)).toBeNull();
  });

  it('refuses a token whose expiry or version was changed, or whose MAC was', () => {
    const bytes = Buffer.from(token, 'base64url');
    const altered = (at: number, change: (byte: number) => number) => {
      const copy = Buffer.from(bytes);
      copy[at] = change(copy[at]);
      return copy.toString('base64url');
    };
    for (const at of [0, 1, 6, 7, 31])
      expect([
        at,
        verifyCallbackToken(
          key,
          a,
          altered(at, (x) => x ^ 1),
        ),
      ]).toEqual([at, null]);
    const later = Buffer.from(bytes);
    later.writeUIntBE(expiresAt + 86_400_000, 1, 6);
    expect(verifyCallbackToken(key, a, later.toString('base64url'))).toBeNull();
  });

  it('refuses other shapes: too short, too long, padded, another alphabet, another spelling of the bytes', () => {
    // 43 characters carry 2 bits more than 32 bytes: this last character decodes to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1) as string) ^ 1];
    expect(Buffer.from(sibling, 'base64url').equals(Buffer.from(token, 'base64url'))).toBe(true);
    for (const bad of [
      '',
      token.slice(0, 42),
      `${token}A`,
      `${token}=`,
      token.replace(/[-_]/g, '+'),
      sibling,
      'not-the-token',
    ])
      expect([bad, verifyCallbackToken(key, a, bad)]).toEqual([bad, null]);
  });
});
