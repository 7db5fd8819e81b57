import { Client } from 'pg';
import request from 'supertest';
import {
  createTestApp,
  lastMailTo,
  testDatabaseUrl,
  tokenFromMail,
  type TestApp,
} from '../../test/app.test-util';
import { as } from '../../test/auth';
import { type Account, registerAccount } from '../../test/identities.test-util';
import { joinAsNewMember } from '../../test/invitations.test-util';
import type { SsoSettingsView } from '../contracts/sso';
import { ISSUER_ADDRESS_REFUSED, ISSUER_NEEDS_HTTPS, INVALID_DOMAIN } from './sso-validation';
import {
  CLIENT_SECRET_REQUIRED,
  DOMAIN_LINK_INVALID,
  DOMAIN_TAKEN,
  ONLY_OWNER_SSO,
  PROOF_ADDRESS_OUTSIDE,
} from './sso-settings.service';

const SECRET = 'acme-client-secret-never-shown-7f3a';

describe('single sign-on settings and domain proofs (real PostgreSQL)', () => {
  let t: TestApp;
  let db: Client;
  let owner: Account;
  let other: Account;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9999' });
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  beforeEach(async () => {
    owner = await registerAccount(t, 'sso-owner');
    other = await registerAccount(t, 'sso-other');
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  const settings = {
    enabled: true,
    issuer: 'https://login.acme.test/realms/acme',
    clientId: 'switchboard',
    requireSso: false,
    autoJoin: true,
  };
  const put = (caller: Account, body: object, company = owner.companyId) =>
    request(t.http).put('/api/company/sso').set(as(caller, company)).send(body);
  const claim = (caller: Account, body: object, company = caller.companyId) =>
    request(t.http).post('/api/company/sso/domains').set(as(caller, company)).send(body);
  const verify = (token: string) => request(t.http).post('/api/sso/domains/verify').send({ token });
  const uniqueDomain = () => `acme-${process.pid}-${Date.now()}-${++seq}.test`;

  it('an owner saves the provider; the client secret is sealed at rest and never answered', async () => {
    const saved = await put(owner, { ...settings, clientSecret: SECRET }).expect(200);
    const view = saved.body as SsoSettingsView;
    expect(view).toMatchObject({ ...settings, hasClientSecret: true, domains: [] });
    expect(view.redirectUri).toBe(`${t.config.appOrigin}/api/auth/sso/callback`);
    expect(JSON.stringify(saved.body)).not.toContain(SECRET);
    const read = await request(t.http).get('/api/company/sso').set(as(owner, owner.companyId)).expect(200);
    expect(JSON.stringify(read.body)).not.toContain(SECRET);

    const row = await db.query<{ sealed: string }>(
      'SELECT client_secret_sealed AS sealed FROM company_sso WHERE company_id = $1',
      [owner.companyId],
    );
    expect(row.rows[0].sealed).toBeTruthy();
    expect(row.rows[0].sealed).not.toContain(SECRET);
    expect(Buffer.from(row.rows[0].sealed.replace(/\./g, ''), 'base64url').toString('latin1')).not.toContain(
      SECRET,
    );

    // Saving without a secret keeps it; the audit entry names what changed, never the secret.
    const again = await put(owner, { ...settings, requireSso: true }).expect(200);
    expect(again.body).toMatchObject({ requireSso: true, hasClientSecret: true });
    const audit = await db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE company_id = $1 AND action = 'sso.updated' ORDER BY created_at`,
      [owner.companyId],
    );
    expect(audit.rows.map((r) => r.details.changed)).toEqual([
      ['enabled', 'issuer', 'clientId', 'requireSso', 'autoJoin', 'clientSecret'],
      ['requireSso'],
    ]);
    expect(JSON.stringify(audit.rows)).not.toContain(SECRET);
  });

  it('is for owners only: admins and members are refused, outsiders do not see the company', async () => {
    const admin = await joinAsNewMember(t, owner, owner.companyId, 'admin');
    const member = await joinAsNewMember(t, owner, owner.companyId, 'user');
    for (const caller of [admin, member]) {
      const read = await request(t.http).get('/api/company/sso').set(as(caller, owner.companyId)).expect(403);
      expect(read.body.message).toBe(ONLY_OWNER_SSO);
      await put(caller, { ...settings, clientSecret: SECRET }).expect(403);
      await claim(caller, { domain: uniqueDomain() }, owner.companyId).expect(403);
    }
    await request(t.http).get('/api/company/sso').set(as(other, owner.companyId)).expect(404);
    const row = await db.query('SELECT 1 FROM company_sso WHERE company_id = $1', [owner.companyId]);
    expect(row.rowCount).toBe(0);
  });

  it('refuses an issuer that is not https, points inside, or is no URL, and a first save without a secret', async () => {
    const cases: Array<[string, string]> = [
      ['http://login.acme.test', ISSUER_NEEDS_HTTPS],
      ['https://10.1.2.3/realms/acme', ISSUER_ADDRESS_REFUSED],
      ['https://169.254.169.254', ISSUER_ADDRESS_REFUSED],
      ['http://localhost:8080', ISSUER_ADDRESS_REFUSED],
      ['ftp://login.acme.test', 'Please enter the issuer URL of your identity provider (https://...)'],
      [
        'https://user:pw@login.acme.test',
        'Please enter the issuer URL of your identity provider (https://...)',
      ],
      ['not a url', 'Please enter the issuer URL of your identity provider (https://...)'],
    ];
    for (const [issuer, message] of cases) {
      const res = await put(owner, { ...settings, issuer, clientSecret: SECRET }).expect(400);
      expect(res.body.message).toBe(message);
    }
    // An allow-listed loopback provider (as tests run theirs) may use http.
    await put(owner, { ...settings, issuer: 'http://127.0.0.1:9999/', clientSecret: SECRET })
      .expect(200)
      .expect((res) => expect(res.body.issuer).toBe('http://127.0.0.1:9999'));
    const second = await registerAccount(t, 'sso-nosecret');
    const res = await put(second, settings, second.companyId).expect(400);
    expect(res.body.message).toBe(CLIENT_SECRET_REQUIRED);
  });

  it('normalises domains and refuses wildcards, addresses and an address elsewhere', async () => {
    const base = uniqueDomain();
    const idn = await claim(owner, { domain: `Bücher-${base.toUpperCase()}.` }).expect(201);
    expect(idn.body.domain).toMatch(/^xn--bcher-/);
    expect(idn.body.domain).toBe(idn.body.domain.toLowerCase());
    expect(idn.body.proofSentTo).toBe(`postmaster@${idn.body.domain}`);
    for (const domain of [
      '*.acme.test',
      'someone@acme.test',
      'localhost',
      '10.0.0.1',
      'acme.test:443',
      'https://acme.test',
    ]) {
      const res = await claim(owner, { domain }).expect(400);
      expect(res.body.message).toBe(INVALID_DOMAIN);
    }
    const res = await claim(owner, { domain: base, email: 'it@elsewhere.test' }).expect(400);
    expect(res.body.message).toBe(PROOF_ADDRESS_OUTSIDE);
  });

  it('proves a domain by a mailed link that works once, before it expires, for one company only', async () => {
    const domain = uniqueDomain();
    const admin = `it-admin@${domain}`;
    const claimed = await claim(owner, { domain, email: admin }).expect(201);
    expect(claimed.body).toMatchObject({ domain, verifiedAt: null, proofSentTo: admin });
    // The other company may claim it too while nobody proved it.
    await claim(other, { domain }).expect(201);
    await t.drain();
    expect(lastMailTo(t, admin)).toContain(domain);
    const token = tokenFromMail(t, admin, '/verify-domain');
    const stored = await db.query('SELECT 1 FROM company_domains WHERE proof_token_hash = $1', [token]);
    expect(stored.rowCount).toBe(0); // only the hash is kept

    const proved = await verify(token).expect(200);
    expect(proved.body).toEqual({ domain, companyName: expect.any(String) });
    const replay = await verify(token).expect(400);
    expect(replay.body.message).toBe(DOMAIN_LINK_INVALID);
    const view = await request(t.http).get('/api/company/sso').set(as(owner, owner.companyId)).expect(200);
    expect((view.body as SsoSettingsView).domains).toEqual([
      { id: claimed.body.id, domain, verifiedAt: expect.any(String), proofSentTo: null },
    ]);

    // Now it is the owner's company's: the other company's link no longer proves it, nor can it claim it.
    await t.drain();
    const otherToken = tokenFromMail(t, `postmaster@${domain}`, '/verify-domain');
    expect((await verify(otherToken).expect(409)).body.message).toBe(DOMAIN_TAKEN);
    expect((await claim(other, { domain }).expect(409)).body.message).toBe(DOMAIN_TAKEN);

    const audit = await db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE company_id = $1 AND action LIKE 'sso.domain%' ORDER BY created_at`,
      [owner.companyId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['sso.domain_claimed', 'sso.domain_verified']);
  });

  it('refuses an expired link, and removing a claim frees the domain', async () => {
    const domain = uniqueDomain();
    const claimed = await claim(owner, { domain }).expect(201);
    await t.drain();
    const token = tokenFromMail(t, `postmaster@${domain}`, '/verify-domain');
    await db.query(
      `UPDATE company_domains SET proof_expires_at = now() - interval '1 minute' WHERE id = $1`,
      [claimed.body.id],
    );
    expect((await verify(token).expect(400)).body.message).toBe(DOMAIN_LINK_INVALID);

    await request(t.http)
      .delete(`/api/company/sso/domains/${claimed.body.id}`)
      .set(as(other, other.companyId))
      .expect(404);
    await request(t.http)
      .delete(`/api/company/sso/domains/${claimed.body.id}`)
      .set(as(owner, owner.companyId))
      .expect(204);
    await claim(other, { domain }).expect(201);
    await t.drain();
    await verify(tokenFromMail(t, `postmaster@${domain}`, '/verify-domain')).expect(200);
  });
});
