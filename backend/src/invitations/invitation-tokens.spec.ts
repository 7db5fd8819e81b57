import type { AppConfig } from '../config/app-config';
import type { InvitationEntity } from './invitation.entity';
import { hashInvitationToken, InvitationTokens, invitationExpiry } from './invitation-tokens';
import { effectiveStatus } from './invitations.repository';

const tokensWith = (jwtSecret: string) => new InvitationTokens({ jwtSecret } as AppConfig);

describe('invitationExpiry', () => {
  it('is the end of the 30th day from now, in server local time', () => {
    const now = new Date(2026, 0, 10, 8, 30, 0, 0); // 10 Jan, 08:30 local
    expect(invitationExpiry(now)).toEqual(new Date(2026, 1, 9, 23, 59, 59, 999)); // 9 Feb, 23:59:59.999
  });

  it('counts calendar days across month and year ends, late in the evening too', () => {
    expect(invitationExpiry(new Date(2026, 11, 15, 23, 59, 59, 999))).toEqual(
      new Date(2027, 0, 14, 23, 59, 59, 999),
    );
    expect(invitationExpiry(new Date(2028, 1, 1, 0, 0, 0, 0))).toEqual(new Date(2028, 2, 2, 23, 59, 59, 999));
  });
});

describe('effectiveStatus', () => {
  const row = (status: InvitationEntity['status'], expiresAt: Date) =>
    ({ status, expiresAt }) as InvitationEntity;
  const end = new Date(2026, 1, 9, 23, 59, 59, 999);

  it('is pending up to the last millisecond before expires_at, expired from it on', () => {
    expect(effectiveStatus(row('pending', end), new Date(end.getTime() - 1))).toBe('pending');
    expect(effectiveStatus(row('pending', end), end)).toBe('expired');
    expect(effectiveStatus(row('pending', end), new Date(end.getTime() + 1))).toBe('expired');
  });

  it('leaves accepted and rejected as they are', () => {
    expect(effectiveStatus(row('accepted', end), new Date(end.getTime() + 1))).toBe('accepted');
    expect(effectiveStatus(row('rejected', end), new Date(0))).toBe('rejected');
  });
});

describe('InvitationTokens', () => {
  const secret = 'a-jwt-secret-that-is-long-enough-0123456789';

  it('issues 256-bit tokens, looked up by SHA-256, sealed so that only the same key opens them', () => {
    const tokens = tokensWith(secret);
    const issued = tokens.issue();
    expect(Buffer.from(issued.token, 'base64url')).toHaveLength(32);
    expect(issued.hash).toBe(hashInvitationToken(issued.token));
    expect(issued.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.sealed).not.toContain(issued.token);
    expect(tokens.open(issued.sealed)).toBe(issued.token);
    expect(tokensWith(secret).open(issued.sealed)).toBe(issued.token);
    expect(tokensWith(`${secret}-rotated`).open(issued.sealed)).toBeNull();
    expect(tokens.issue().token).not.toBe(issued.token);
  });

  it('refuses a tampered or malformed sealed copy', () => {
    const tokens = tokensWith(secret);
    const [iv, body, tag] = tokens.issue().sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(tokens.open([iv, flipped.toString('base64url'), tag].join('.'))).toBeNull();
    expect(tokens.open('not.sealed')).toBeNull();
    expect(tokens.open('')).toBeNull();
  });
});
