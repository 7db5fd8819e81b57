import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADDRESS_REFUSED } from '../webhooks/ssrf-guard';
import { guardedFetch } from './guarded-fetch';
import { checkIssuerUrl, domainOfEmail, normalizeDomain } from './sso-validation';

describe('email domains for single sign-on', () => {
  it.each([
    ['Acme.COM', 'acme.com'],
    ['  acme.com.  ', 'acme.com'],
    ['Bücher.example', 'xn--bcher-kva.example'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['sub.acme.co.uk', 'sub.acme.co.uk'],
  ])('normalises %p to %p', (raw, domain) => expect(normalizeDomain(raw)).toBe(domain));

  it.each([
    '*.acme.com',
    'acme',
    'localhost',
    '10.0.0.1',
    '1.2.3.4',
    'a@acme.com',
    'acme.com:443',
    '-acme.com',
    'ac me.com',
    '',
  ])('refuses %p', (raw) => expect(normalizeDomain(raw)).toBeNull());

  it('reads the domain of an address the same way', () => {
    expect(domainOfEmail('Someone@Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(domainOfEmail('no-at-sign')).toBeNull();
  });
});

describe('issuer URLs', () => {
  const allowed = new Set(['10.1.2.3:8443']);
  it.each([
    ['https://login.acme.com/realms/acme/', 'https://login.acme.com/realms/acme'],
    ['https://10.1.2.3:8443/', 'https://10.1.2.3:8443'],
  ])('accepts %p', (raw, issuer) => {
    expect(checkIssuerUrl(raw, allowed)).toEqual({ issuer });
  });

  it('lets http through for a loopback host, whose address an operator must still allow', () => {
    expect(checkIssuerUrl('http://127.0.0.1:9000', allowed)).toEqual({
      problem: expect.stringContaining('private or local network'),
    });
    expect(checkIssuerUrl('http://127.0.0.1:9000', new Set(['127.0.0.1:9000']))).toEqual({
      issuer: 'http://127.0.0.1:9000',
    });
  });

  it.each([
    'http://login.acme.com',
    'https://192.168.0.1',
    'https://[::1]/',
    'https://a:b@acme.com',
    'https://acme.com/?x=1',
  ])('refuses %p', (raw) => expect('problem' in checkIssuerUrl(raw, allowed)).toBe(true));
});

describe('the fetch openid-client uses for a provider', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end(JSON.stringify({ ok: true })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses private and local addresses a discovery document could name', async () => {
    const fetch = guardedFetch(new Set(), 2000);
    for (const url of [
      `http://127.0.0.1:${port}/jwks`,
      'http://169.254.169.254/latest',
      `http://localhost:${port}/`,
    ])
      await expect(fetch(url, { method: 'GET', headers: {} })).rejects.toThrow(ADDRESS_REFUSED);
  });

  it('reaches an allow-listed host', async () => {
    const fetch = guardedFetch(new Set([`127.0.0.1:${port}`]), 2000);
    const res = await fetch(`http://127.0.0.1:${port}/jwks`, { method: 'GET', headers: {} });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
