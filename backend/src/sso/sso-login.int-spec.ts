import { Client } from 'pg';
import request from 'supertest';
import {
  cookieFrom,
  createTestApp,
  lastMailTo,
  testDatabaseUrl,
  tokenFromMail,
  type TestApp,
} from '../../test/app.test-util';
import { as } from '../../test/auth';
import { type Account, registerAccount } from '../../test/identities.test-util';
import { followProvider, startTestIdp, type TestIdp } from '../../test/oidc-provider.test-util';
import { setSuperadmin } from '../../test/factories';
import { companyRoomsOf, connectSocket, type EventLog } from '../../test/realtime.test-util';
import { SSO_REQUIRED_MESSAGE as SSO_REQUIRED } from '../contracts/sso';

const APP = 'http://switchboard.test';
const CALLBACK = `${APP}/api/auth/sso/callback`;

jest.setTimeout(60_000);

describe('single sign-on through a real OpenID provider per company', () => {
  let t: TestApp;
  let db: Client;
  let acmeIdp: TestIdp;
  let globexIdp: TestIdp;
  let liarIdp: TestIdp;
  let acme: Account;
  let globex: Account;
  let liar: Account;
  const acmeDomain = `acme-${process.pid}.test`;
  const globexDomain = `globex-${process.pid}.test`;
  const liarDomain = `liar-${process.pid}.test`;
  let seq = 0;
  const person = (domain: string) => `person-${++seq}@${domain}`;
  const sockets: EventLog[] = [];

  beforeAll(async () => {
    const accounts = {};
    [acmeIdp, globexIdp, liarIdp] = await Promise.all([
      startTestIdp({ redirectUri: CALLBACK, accounts }),
      startTestIdp({ redirectUri: CALLBACK, accounts }),
      // Reached at 127.0.0.1 but calling itself localhost: not the issuer the company configured.
      startTestIdp({ redirectUri: CALLBACK, accounts, issuerHost: 'localhost' }),
    ]);
    t = await createTestApp({
      APP_ORIGIN: APP,
      WEBHOOK_ALLOWED_HOSTS: [acmeIdp, globexIdp, liarIdp].map((i) => i.hostPort).join(','),
    });
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    acme = await registerAccount(t, 'sso-acme');
    globex = await registerAccount(t, 'sso-globex');
    liar = await registerAccount(t, 'sso-liar');
    await configure(acme, acmeIdp, acmeDomain);
    await configure(globex, globexIdp, globexDomain);
    await configure(liar, liarIdp, liarDomain);
  });
  afterEach(() => {
    while (sockets.length) sockets.pop()?.close();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    await Promise.all([acmeIdp, globexIdp, liarIdp].map((i) => i?.stop()));
  });

  async function configure(owner: Account, idp: TestIdp, domain: string) {
    await request(t.http)
      .put('/api/company/sso')
      .set(as(owner, owner.companyId))
      .send({
        enabled: true,
        issuer: idp.url,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        requireSso: false,
        autoJoin: true,
      })
      .expect(200);
    await request(t.http)
      .post('/api/company/sso/domains')
      .set(as(owner, owner.companyId))
      .send({ domain })
      .expect(201);
    await t.drain();
    const token = tokenFromMail(t, `postmaster@${domain}`, '/verify-domain');
    await request(t.http).post('/api/sso/domains/verify').send({ token }).expect(200);
  }

  interface Attempt {
    /** Where the app sent the browser at the end. */
    location: string;
    refreshCookie: string | null;
    callback?: URL;
    pending?: string;
  }

  /** The browser's trip: start → provider → callback, as the sign-in page's "Continue with SSO" makes it. */
  async function ssoSignIn(email: string): Promise<Attempt> {
    const start = await request(t.http).get('/api/auth/sso/start').query({ email }).expect(302);
    const location = start.headers.location as string;
    if (location.startsWith('/')) return { location, refreshCookie: null };
    const pending = cookieFrom(start, 'sb_sso');
    const callback = await followProvider(location, CALLBACK);
    return { ...(await returnTo(callback, pending)), callback, pending };
  }

  async function returnTo(callback: URL, pending: string | null) {
    const req = request(t.http).get(callback.pathname + callback.search);
    const res = await (pending ? req.set('Cookie', pending) : req).expect(302);
    const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
    const refresh = cookies.find((c) => c.startsWith('sb_refresh=') && !c.startsWith('sb_refresh=;'));
    return {
      location: res.headers.location as string,
      refreshCookie: refresh ? refresh.split(';')[0] : null,
    };
  }

  async function companiesOf(refreshCookie: string) {
    const session = await request(t.http).post('/api/auth/refresh').set('Cookie', refreshCookie).expect(200);
    const res = await request(t.http)
      .get('/api/companies')
      .set('Authorization', `Bearer ${session.body.accessToken}`)
      .expect(200);
    return (res.body as Array<{ id: string; role: string }>).map((c) => [c.id, c.role]);
  }

  it('signs people in through each company’s own provider, two at once, and they join as User (live, audited)', async () => {
    const alice = person(acmeDomain);
    const bob = person(globexDomain);
    await acmeIdp.setAccounts({
      [alice]: { sub: 'acme-alice', email_verified: true, given_name: 'Alice', family_name: 'Liddell' },
    });
    await globexIdp.setAccounts({ [bob]: { sub: 'globex-bob', email_verified: true, name: 'Bob Le Page' } });
    const managers = await connectSocket(t.baseUrl, acme.accessToken);
    sockets.push(managers);

    const [a, b] = await Promise.all([ssoSignIn(alice), ssoSignIn(bob)]);
    expect(a).toMatchObject({ location: '/chat', refreshCookie: expect.any(String) });
    expect(b).toMatchObject({ location: '/chat', refreshCookie: expect.any(String) });
    expect(await companiesOf(a.refreshCookie!)).toEqual([[acme.companyId, 'user']]);
    expect(await companiesOf(b.refreshCookie!)).toEqual([[globex.companyId, 'user']]);

    const joined = await managers.waitFor('member.joined');
    expect(joined).toMatchObject({
      companyId: acme.companyId,
      member: { email: alice, role: 'user', name: 'Alice Liddell' },
    });
    // The new accounts are named as the providers name them.
    const names = await db.query<{ email: string; first_name: string; last_name: string }>(
      'SELECT email, first_name, last_name FROM profiles WHERE email = ANY($1) ORDER BY email',
      [[alice, bob]],
    );
    expect(names.rows).toEqual([
      { email: alice, first_name: 'Alice', last_name: 'Liddell' },
      { email: bob, first_name: 'Bob', last_name: 'Le Page' },
    ]);
    const audit = await db.query<{ action: string; company_id: string }>(
      `SELECT action, company_id FROM audit_log WHERE actor_label = $1 ORDER BY created_at`,
      [alice],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['member.auto_joined', 'auth.sign_in']);
    const identity = await db.query('SELECT issuer, subject FROM external_identities WHERE email = $1', [
      alice,
    ]);
    expect(identity.rows).toEqual([{ issuer: acmeIdp.url, subject: 'acme-alice' }]);

    // Again later: found by iss + sub, same account, still one membership.
    const again = await ssoSignIn(alice);
    expect(again.location).toBe('/chat');
    expect(await companiesOf(again.refreshCookie!)).toEqual([[acme.companyId, 'user']]);

    // Removed by Acme's managers: signing in with SSO again does not bring her back in.
    const aliceId = (await db.query<{ id: string }>('SELECT id FROM profiles WHERE email = $1', [alice]))
      .rows[0].id;
    await request(t.http).delete(`/api/company/members/${aliceId}`).set(as(acme, acme.companyId)).expect(204);
    const removed = await ssoSignIn(alice);
    expect(removed.location).toBe('/chat');
    expect(await companiesOf(removed.refreshCookie!)).toEqual([]);
    expect(
      (
        await db.query('SELECT 1 FROM audit_log WHERE actor_label = $1 AND action = $2', [
          alice,
          'member.auto_joined',
        ])
      ).rowCount,
    ).toBe(1);
  });

  it('says only whether an address has single sign-on', async () => {
    const lookup = (email: string) => request(t.http).get('/api/auth/sso/lookup').query({ email });
    expect((await lookup(`anyone@${acmeDomain}`).expect(200)).body).toEqual({ sso: true });
    expect((await lookup('anyone@elsewhere.test').expect(200)).body).toEqual({ sso: false });
    expect((await lookup('not an address').expect(400)).body.message).toBe(
      'Please enter a valid email address',
    );
    expect((await ssoSignIn('anyone@elsewhere.test')).location).toBe('/?error=sso_unavailable');
  });

  it('refuses a bad or missing state, a replayed code, an unverified email and a changed sub', async () => {
    const carol = person(acmeDomain);
    await acmeIdp.setAccounts({ [carol]: { sub: 'acme-carol', email_verified: true } });

    // State: a callback whose state is not the one this browser started with, or without the cookie.
    const start = await request(t.http).get('/api/auth/sso/start').query({ email: carol }).expect(302);
    const pending = cookieFrom(start, 'sb_sso');
    const callback = await followProvider(start.headers.location as string, CALLBACK);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    expect((await returnTo(forged, pending)).location).toBe('/?error=sso_state');
    expect((await returnTo(callback, null)).location).toBe('/?error=sso_state');

    // The real one works once; the same code again (even with the browser's cookie) is refused.
    expect(await returnTo(callback, pending)).toMatchObject({ location: '/chat' });
    expect(await returnTo(callback, pending)).toEqual({
      location: '/?error=sso_code_rejected',
      refreshCookie: null,
    });

    // The provider does not vouch for the address.
    const dave = person(acmeDomain);
    await acmeIdp.setAccounts({ [dave]: { sub: 'acme-dave', email_verified: false } });
    expect(await ssoSignIn(dave)).toMatchObject({
      location: '/?error=sso_email_unverified',
      refreshCookie: null,
    });

    // Carol's account is linked to sub acme-carol: the provider now names another sub for her address.
    await acmeIdp.setAccounts({ [carol]: { sub: 'acme-carol-2', email_verified: true } });
    expect(await ssoSignIn(carol)).toMatchObject({
      location: '/?error=sso_identity_changed',
      refreshCookie: null,
    });

    // Removed at the provider: it refuses, so no sign-in.
    await acmeIdp.setAccounts({});
    expect(await ssoSignIn(carol)).toMatchObject({
      location: '/?error=sso_code_rejected',
      refreshCookie: null,
    });
    const users = await db.query('SELECT 1 FROM profiles WHERE email = $1', [dave]);
    expect(users.rowCount).toBe(0);
  });

  it('follows the provider rotating its signing key (its key set cached, fetched again for a new key)', async () => {
    const email = person(globexDomain);
    await globexIdp.setAccounts({ [email]: { sub: `globex-rotate-${seq}`, email_verified: true } });
    expect((await ssoSignIn(email)).location).toBe('/chat');
    // The provider signs with a key the app has not seen: the ID token's signature is checked, so within
    // a minute of fetching the key set (the client library's cool-down, against bursts of made-up key
    // ids) the sign-in is refused; past that, the unknown key id fetches the set again at once.
    await globexIdp.rotateKeys();
    expect((await ssoSignIn(email)).location).toBe('/?error=sso_code_rejected');
    const realNow = Date.now.bind(Date);
    const later = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 61_000);
    try {
      expect((await ssoSignIn(email)).location).toBe('/chat');
    } finally {
      later.mockRestore();
    }
  });

  it('another provider for the company ends the sessions the old one made', async () => {
    const erin = person(acmeDomain);
    await acmeIdp.setAccounts({ [erin]: { sub: 'acme-erin', email_verified: true } });
    const signedIn = await ssoSignIn(erin);
    expect(signedIn.location).toBe('/chat');
    const settings = (issuer: string) => ({
      enabled: true,
      issuer,
      clientId: acmeIdp.clientId,
      requireSso: false,
      autoJoin: true,
    });
    // A change that keeps the provider leaves them.
    await request(t.http)
      .put('/api/company/sso')
      .set(as(acme, acme.companyId))
      .send({ ...settings(acmeIdp.url), autoJoin: false })
      .expect(200);
    await request(t.http).post('/api/auth/refresh').set('Cookie', signedIn.refreshCookie!).expect(200);
    await request(t.http)
      .put('/api/company/sso')
      .set(as(acme, acme.companyId))
      .send(settings(globexIdp.url))
      .expect(200);
    await request(t.http).post('/api/auth/refresh').set('Cookie', signedIn.refreshCookie!).expect(401);
    await request(t.http)
      .put('/api/company/sso')
      .set(as(acme, acme.companyId))
      .send(settings(acmeIdp.url))
      .expect(200);
  });

  it('refuses a provider whose discovery names another issuer', async () => {
    const erin = person(liarDomain);
    await liarIdp.setAccounts({ [erin]: { sub: 'erin', email_verified: true } });
    expect(await ssoSignIn(erin)).toEqual({ location: '/?error=sso_provider_failed', refreshCookie: null });
  });

  it('links an existing account only when its own address was verified, as Google does', async () => {
    // Registered with a password, address never verified: not linked; its owner gets a reset link.
    const local = await registerAccount(t, `frank-${process.pid}`);
    const frank = local.email.replace(/@.*/, `@${acmeDomain}`);
    await db.query('UPDATE profiles SET email = $2, email_verified_at = NULL WHERE id = $1', [
      local.userId,
      frank,
    ]);
    await acmeIdp.setAccounts({ [frank]: { sub: 'acme-frank', email_verified: true } });
    expect(await ssoSignIn(frank)).toMatchObject({ location: '/?error=sso_account_unverified' });
    await t.drain();
    expect(lastMailTo(t, frank)).toContain('/reset-password?token=');

    await db.query('UPDATE profiles SET email_verified_at = now() WHERE id = $1', [local.userId]);
    const linked = await ssoSignIn(frank);
    expect(linked.location).toBe('/chat');
    expect(await companiesOf(linked.refreshCookie!)).toEqual(
      expect.arrayContaining([
        [local.companyId, 'owner'],
        [acme.companyId, 'user'],
      ]),
    );
  });

  it('"members must use SSO" refuses the company\'s data to other sessions (not their other companies); turning SSO off ends SSO sessions', async () => {
    // Grace has a password account with a company of her own, and is linked to Acme through its provider.
    const local = await registerAccount(t, `grace-${process.pid}`);
    const grace = local.email.replace(/@.*/, `@${acmeDomain}`);
    await db.query('UPDATE profiles SET email = $2, email_verified_at = now() WHERE id = $1', [
      local.userId,
      grace,
    ]);
    await acmeIdp.setAccounts({ [grace]: { sub: 'acme-grace', email_verified: true } });
    const viaSso = await ssoSignIn(grace);
    expect(viaSso.location).toBe('/chat');
    const ssoSession = await request(t.http)
      .post('/api/auth/refresh')
      .set('Cookie', viaSso.refreshCookie!)
      .expect(200);
    const ssoToken = ssoSession.body.accessToken as string;
    const byPassword = await request(t.http)
      .post('/api/auth/login')
      .send({ email: grace, password: local.password })
      .expect(200);
    const passwordToken = byPassword.body.accessToken as string;
    const agents = (token: string, company: string) =>
      request(t.http)
        .get('/api/agents')
        .set(as({ accessToken: token }, company));
    // Both sessions have a socket open when the owner switches enforcement on.
    const ssoSocket = await connectSocket(t.baseUrl, ssoToken);
    const passwordSocket = await connectSocket(t.baseUrl, passwordToken);
    sockets.push(ssoSocket, passwordSocket);
    const acmeRooms = (log: EventLog) =>
      companyRoomsOf(t.app, log).filter((room) => room.startsWith(`company:${acme.companyId}`));
    expect(acmeRooms(passwordSocket)).toEqual([`company:${acme.companyId}`]);

    await request(t.http)
      .put('/api/company/sso')
      .set(as(acme, acme.companyId))
      .send({
        enabled: true,
        issuer: acmeIdp.url,
        clientId: acmeIdp.clientId,
        requireSso: true,
        autoJoin: true,
      })
      .expect(200);
    const refused = await agents(passwordToken, acme.companyId).expect(403);
    expect(refused.body).toMatchObject({ error: 'SSO_REQUIRED', message: SSO_REQUIRED });
    // The open socket of the password session left Acme's rooms at once, and its screen was told.
    await passwordSocket.waitFor<{ companyId: string; required: boolean }>(
      'company.sso_required',
      (p) => p.companyId === acme.companyId && p.required,
    );
    expect(acmeRooms(passwordSocket)).toEqual([`company:${acme.companyId}:sso-refused`]);
    expect(acmeRooms(ssoSocket)).toEqual([`company:${acme.companyId}`]);
    expect(companyRoomsOf(t.app, passwordSocket)).toContain(`company:${local.companyId}:managers`);
    // What the SSO session does in Acme reaches its own socket, never the password session's.
    const agent = await request(t.http)
      .post('/api/agents')
      .set(as({ accessToken: ssoToken }, acme.companyId))
      .send({ name: 'Acme helper', webhook: `${acmeIdp.url}/hook` })
      .expect(201);
    await ssoSocket.waitFor<{ agent: { id: string } }>('agent.created', (p) => p.agent.id === agent.body.id);
    expect(passwordSocket.events.some((e) => e.event === 'agent.created')).toBe(false);
    // A socket the password session opens now is kept out of Acme the same way.
    const later = await connectSocket(t.baseUrl, passwordToken);
    sockets.push(later);
    expect(acmeRooms(later)).toEqual([`company:${acme.companyId}:sso-refused`]);
    // The companies list says which company wants single sign-on from this session.
    const listed = await request(t.http)
      .get('/api/companies')
      .set('Authorization', `Bearer ${passwordToken}`)
      .expect(200);
    expect(listed.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: acme.companyId, ssoRequired: true }),
        expect.not.objectContaining({ ssoRequired: true }),
      ]),
    );
    await agents(passwordToken, local.companyId).expect(200);
    await agents(ssoToken, acme.companyId).expect(200);
    // Owners are not locked out of their own settings by their provider.
    await request(t.http).get('/api/company/sso').set(as(acme, acme.companyId)).expect(200);
    const boot = await request(t.http)
      .get('/api/bootstrap')
      .query({ companyId: acme.companyId, chat: 'true' })
      .set('Authorization', `Bearer ${passwordToken}`)
      .expect(200);
    expect(boot.body.chat).toBeNull();

    // The owner turns SSO off: the session its provider made ends; the password one now reaches Acme.
    await request(t.http)
      .put('/api/company/sso')
      .set(as(acme, acme.companyId))
      .send({
        enabled: false,
        issuer: acmeIdp.url,
        clientId: acmeIdp.clientId,
        requireSso: true,
        autoJoin: true,
      })
      .expect(200);
    await agents(ssoToken, local.companyId).expect(401);
    await request(t.http)
      .post('/api/auth/refresh')
      .set('Cookie', ssoSession.headers['set-cookie'][0].split(';')[0])
      .expect(401);
    await agents(passwordToken, acme.companyId).expect(200);
    // Its sockets are back in Acme's rooms, without reconnecting.
    await passwordSocket.waitFor<{ companyId: string; required: boolean }>(
      'company.sso_required',
      (p) => p.companyId === acme.companyId && !p.required,
    );
    expect(acmeRooms(passwordSocket)).toEqual([`company:${acme.companyId}`]);
    expect((await request(t.http).get('/api/auth/sso/lookup').query({ email: grace })).body).toEqual({
      sso: false,
    });
  });

  it('a platform admin sees which companies use SSO and turns one off (audited); no API returns a client secret', async () => {
    const admin = await registerAccount(t, 'sso-platform');
    await setSuperadmin(t.app, admin.userId);
    const hank = person(globexDomain);
    await globexIdp.setAccounts({ [hank]: { sub: 'globex-hank', email_verified: true } });
    const viaSso = await ssoSignIn(hank);
    const session = await request(t.http)
      .post('/api/auth/refresh')
      .set('Cookie', viaSso.refreshCookie!)
      .expect(200);
    const headers = { Authorization: `Bearer ${admin.accessToken}` };

    const responses: unknown[] = [];
    const listed = async () => {
      const res = await request(t.http)
        .get('/api/admin/companies')
        .query({ limit: 100 })
        .set(headers)
        .expect(200);
      responses.push(res.body);
      return Object.fromEntries(
        (res.body.companies as Array<{ id: string; usesSso: boolean }>).map((c) => [c.id, c.usesSso]),
      );
    };
    expect(await listed()).toMatchObject({ [globex.companyId]: true, [admin.companyId]: false });
    for (const company of [globex, liar])
      for (const path of ['/api/company/sso', '/api/company/details'])
        responses.push(
          (await request(t.http).get(path).set(as(company, company.companyId)).expect(200)).body,
        );
    responses.push(
      (await request(t.http).get(`/api/admin/companies/${globex.companyId}`).set(headers).expect(200)).body,
    );
    responses.push(
      (await request(t.http).get('/api/admin/audit').query({ limit: 100 }).set(headers).expect(200)).body,
    );
    responses.push(
      (await request(t.http).get('/api/company/activity').set(as(globex, globex.companyId)).expect(200)).body,
    );
    responses.push((await request(t.http).get('/api/bootstrap').set(as(globex)).expect(200)).body);
    const everything = JSON.stringify(responses);
    expect(everything).toContain('usesSso');
    for (const idp of [acmeIdp, globexIdp, liarIdp]) expect(everything).not.toContain(idp.clientSecret);

    await request(t.http)
      .post(`/api/admin/companies/${globex.companyId}/sso/disable`)
      .set(headers)
      .expect(204);
    await request(t.http)
      .post(`/api/admin/companies/${globex.companyId}/sso/disable`)
      .set(headers)
      .expect(404);
    expect((await listed())[globex.companyId]).toBe(false);
    await request(t.http)
      .get('/api/me')
      .set('Authorization', `Bearer ${session.body.accessToken}`)
      .expect(401);
    const audit = await db.query<{ actor_id: string }>(
      `SELECT actor_id FROM audit_log WHERE action = 'sso.disabled' AND company_id = $1`,
      [globex.companyId],
    );
    expect(audit.rows).toEqual([{ actor_id: admin.userId }]);
    expect((await ssoSignIn(hank)).location).toBe('/?error=sso_unavailable');
  });
});
