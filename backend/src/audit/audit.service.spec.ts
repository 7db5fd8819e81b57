import { displayIp } from './audit.service';

describe('audit log addresses', () => {
  it('shows an IPv4 client of a dual-stack socket as plain IPv4', () => {
    expect(displayIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keeps IPv6, plain IPv4 and a missing address as they are', () => {
    expect(displayIp('2001:db8::1')).toBe('2001:db8::1');
    expect(displayIp('::ffff:abcd')).toBe('::ffff:abcd');
    expect(displayIp('198.51.100.2')).toBe('198.51.100.2');
    expect(displayIp(null)).toBeNull();
    expect(displayIp(undefined)).toBeUndefined();
  });
});
