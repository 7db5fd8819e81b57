import request from 'supertest';
import {
  cookieFrom,
  createTestApp,
  lastMailTo,
  tokenFromMail,
  registerUser,
  type TestApp,
  uniqueEmail,
} from '../../test/app.test-util';
import { as } from '../../test/auth';
import type { Account } from '../../test/identities.test-util';
import { invite } from '../../test/invitations.test-util';
import { connectSocket } from '../../test/realtime.test-util';
import { AccessTokenService } from './access-token.service';
import { AuthService, GOOGLE_ACCOUNT_UNVERIFIED } from './auth.service';
import jwt from 'jsonwebtoken';

// Regression tests for the attacker's run of issue 6, one per finding.

const newAccount = () => ({
  email: uniqueEmail('sec'),
  password: 'correct horse battery',
  fullName: 'Sam Secure',
  companyName: 'Safe Co',
});

describe('finding 1: verified email and account linking', () => {
  describe('with REQUIRE_EMAIL_VERIFICATION=false (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('signs the new account in, unverified, and mails a link that verifies it once', async () => {
      const account = newAccount();
      const res = await request(t.http).post('/api/auth/register').send(account).expect(201);
      expect(res.body.user).toMatchObject({ emailVerified: false, pendingEmail: null });
      await t.drain();
      const token = tokenFromMail(t, account.email.toLowerCase(), '/verify-email');
      await request(t.http).post('/api/auth/verify-email').send({ token }).expect(200);
      const again = await request(t.http).post('/api/auth/verify-email').send({ token }).expect(400);
      expect(again.body.message).toBe('This verification link is invalid or has expired.');
      const me = await request(t.http).get('/api/me').set(as(res.body.accessToken)).expect(200);
      expect(me.body.user.emailVerified).toBe(true);
    });

    it('does not link Google into an unverified account registered with a password (pre-hijacking)', async () => {
      const attacker = await registerUser(t);
      const google = t.app.get(AuthService);
      await expect(
        google.googleLogin({
          sub: `victim-${attacker.email}`,
          email: attacker.email,
          emailVerified: true,
          firstName: 'Victim',
          lastName: 'Real',
        }),
      ).rejects.toThrow(GOOGLE_ACCOUNT_UNVERIFIED);
      // The attacker's password still opens only the attacker's own account: no Google identity in it.
      const me = await request(t.http).get('/api/me').set(as(attacker.accessToken)).expect(200);
      expect(me.body.user.emailVerified).toBe(false);
    });

    it('lets the real owner prove the address with a password reset, which ends the other sessions', async () => {
      const attacker = await registerUser(t);
      await request(t.http).post('/api/auth/forgot-password').send({ email: attacker.email }).expect(202);
      await t.drain();
      const token = tokenFromMail(t, attacker.email, '/reset-password');
      await request(t.http)
        .post('/api/auth/reset-password')
        .send({ token, password: 'the-real-owner-password' })
        .expect(200);
      await request(t.http).get('/api/me').set(as(attacker.accessToken)).expect(401);
      const linked = await t.app.get(AuthService).googleLogin({
        sub: `owner-${attacker.email}`,
        email: attacker.email,
        emailVerified: true,
        firstName: 'Owner',
        lastName: 'Real',
      });
      expect(linked.user).toMatchObject({ id: attacker.userId, emailVerified: true });
    });

    it('redirects an unverified Google link to the sign-in page with its own reason', async () => {
      // The callback route needs the Google strategy; the service error carries the reason instead.
      const error = await t.app
        .get(AuthService)
        .googleLogin({
          sub: `sub-${Date.now()}`,
          email: (await registerUser(t)).email,
          emailVerified: true,
          firstName: 'A',
          lastName: 'B',
        })
        .catch((e: unknown) => e);
      expect((error as Error).constructor.name).toBe('GoogleAccountUnverifiedError');
    });
  });

  describe('with REQUIRE_EMAIL_VERIFICATION=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ REQUIRE_EMAIL_VERIFICATION: 'true' });
    });
    afterAll(() => t.close());

    it("an invited sign-up through a manager's copy of the link signs nobody in until the mailed link sets the password", async () => {
      const managerAccount = newAccount();
      await request(t.http).post('/api/auth/register').send(managerAccount).expect(202);
      await t.drain();
      const managerEmail = managerAccount.email.toLowerCase();
      const verify = tokenFromMail(t, managerEmail, '/verify-email');
      await request(t.http).post('/api/auth/verify-email').send({ token: verify }).expect(200);
      const login = await request(t.http)
        .post('/api/auth/login')
        .send({ email: managerEmail, password: managerAccount.password })
        .expect(200);
      const me = await request(t.http).get('/api/me').set(as(login.body.accessToken)).expect(200);
      const manager = {
        accessToken: login.body.accessToken as string,
        companyId: me.body.companies[0].id as string,
      } as Account;
      const email = uniqueEmail('req-invitee');
      const { token } = await invite(t, manager, manager.companyId, email);
      const res = await request(t.http)
        .post('/api/auth/register-invited')
        .send({ token, firstName: 'Ada', lastName: 'L', password: 'attacker chosen password' })
        .expect(202);
      expect(res.body).toEqual({ verificationRequired: true, email });
      expect(res.headers['set-cookie']).toBeUndefined();
      const refused = await request(t.http)
        .post('/api/auth/login')
        .send({ email, password: 'attacker chosen password' })
        .expect(403);
      expect(refused.body.error).toBe('EMAIL_NOT_VERIFIED');
      await t.drain();
      const reset = tokenFromMail(t, email, '/reset-password');
      await request(t.http)
        .post('/api/auth/reset-password')
        .send({ token: reset, password: 'the real owner password' })
        .expect(200);
      await request(t.http)
        .post('/api/auth/login')
        .send({ email, password: 'attacker chosen password' })
        .expect(401);
      const signedIn = await request(t.http)
        .post('/api/auth/login')
        .send({ email, password: 'the real owner password' })
        .expect(200);
      expect(signedIn.body.user).toMatchObject({ email, emailVerified: true });
    });

    it('refuses sign-in until the link is followed, and resends the link on request', async () => {
      const account = newAccount();
      const email = account.email.toLowerCase();
      const res = await request(t.http).post('/api/auth/register').send(account).expect(202);
      expect(res.body).toEqual({ verificationRequired: true, email });
      expect(res.headers['set-cookie']).toBeUndefined();
      await t.drain(); // the account is created by a job, out of sight of the answer
      const refused = await request(t.http)
        .post('/api/auth/login')
        .send({ email, password: account.password })
        .expect(403);
      expect(refused.body).toMatchObject({
        error: 'EMAIL_NOT_VERIFIED',
        message: 'Please verify your email first',
      });
      // A wrong password still says only "invalid", never "not verified".
      await request(t.http).post('/api/auth/login').send({ email, password: 'wrong-password' }).expect(401);

      await t.drain();
      const first = tokenFromMail(t, email, '/verify-email');
      await request(t.http).post('/api/auth/resend-verification').send({ email }).expect(202);
      await t.drain();
      const second = tokenFromMail(t, email, '/verify-email');
      expect(second).not.toBe(first);
      await request(t.http).post('/api/auth/verify-email').send({ token: second }).expect(200);
      await request(t.http).post('/api/auth/login').send({ email, password: account.password }).expect(200);
      // Verified: a resend sends nothing new.
      await request(t.http).post('/api/auth/resend-verification').send({ email }).expect(202);
      await t.drain();
      expect(tokenFromMail(t, email, '/verify-email')).toBe(second);
    });
  });
});

describe('finding 2: a revoked session regains no live events through connection state recovery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses the recovering socket of a session that was logged out while it was away', async () => {
    const user = await registerUser(t);
    const log = await connectSocket(t.baseUrl, user.accessToken);
    try {
      // Recovery needs a session id and an offset: both come with the first packets.
      await request(t.http)
        .post('/api/chats')
        .set(as(user.accessToken))
        .set('X-Company-Id', user.companyId)
        .send({ agentId: 'default-agent' })
        .expect(201);
      await log.waitFor('chat.created');
      // The transport drops, as on a flaky network; the client comes back only once the session is
      // over (a timed reconnect could beat a slow logout on a busy machine).
      log.socket.io.reconnection(false);
      const dropped = new Promise<void>((resolve) => log.socket.once('disconnect', () => resolve()));
      log.socket.io.engine.close();
      await dropped;

      await request(t.http).post('/api/auth/logout').set('Cookie', user.refreshCookie).expect(204);
      const before = log.events.length;
      await request(t.http)
        .post('/api/chats')
        .set(as(user.accessToken))
        .set('X-Company-Id', user.companyId)
        .send({ agentId: 'default-agent' })
        .expect(401);
      const refused = new Promise<string>((resolve) => {
        log.socket.once('connect_error', (e) => resolve(e.message));
        log.socket.once('connect', () => resolve(`recovered=${log.socket.recovered}`));
      });
      log.socket.connect();
      expect(await refused).toBe('unauthorized');
      expect(log.socket.connected).toBe(false);
      expect(log.events.slice(before)).toEqual([]);
    } finally {
      log.close();
    }
  });
});

describe('finding 3: rate limits per address, per account and per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  it('stops one address trying many emails', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await request(t.http)
        .post('/api/auth/login')
        .set('X-Forwarded-For', '198.51.100.1')
        .send({ email: uniqueEmail('spray'), password: 'guess-guess' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });

  it('stops one email being tried from many addresses, with Retry-After', async () => {
    const email = uniqueEmail('target');
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 12; i++) {
      last = await request(t.http)
        .post('/api/auth/login')
        .set('X-Forwarded-For', `198.51.100.${10 + i}`)
        .send({ email, password: `guess-${i}` });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(last!.body.message).toBe('Too many attempts. Please wait a minute and try again.');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('sends at most three reset mails per account whatever the address', async () => {
    const user = await registerUser(t, {}, { 'X-Forwarded-For': '198.51.100.200' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(t.http)
        .post('/api/auth/forgot-password')
        .set('X-Forwarded-For', `198.51.100.${100 + i}`)
        .send({ email: user.email });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
  });

  it('limits registrations from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await request(t.http)
        .post('/api/auth/register')
        .set('X-Forwarded-For', '198.51.100.77')
        .send({ ...newAccount(), password: 'x' }); // refused by validation: still counted, nothing written
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('limits what one signed-in user can make the server do', async () => {
    const user = await registerUser(t, {}, { 'X-Forwarded-For': '198.51.100.201' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await request(t.http)
        .post('/api/companies')
        .set(as(user.accessToken))
        .send({ name: `Company ${i}` });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('finding 4 and 5: hostile bodies are a 400, not a 500', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses deeply nested JSON before parsing it, on public endpoints too', async () => {
    const nested = '['.repeat(40_000) + ']'.repeat(40_000);
    for (const path of ['/api/auth/login', '/api/auth/register', '/api/auth/forgot-password']) {
      const res = await request(t.http).post(path).set('Content-Type', 'application/json').send(nested);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The request body is nested too deeply.');
    }
    // Brackets inside strings are text, not nesting.
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: 'a@b.co', password: '['.repeat(200) })
      .expect(401);
  });

  it('refuses NUL characters and lone surrogates anywhere in a body or query', async () => {
    const user = await registerUser(t);
    const nul = await request(t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ bio: 'a\u0000b' })
      .expect(400);
    expect(nul.body.message).toBe('Text must not contain NUL characters.');
    const surrogate = await request(t.http)
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email":"\\ud800@example.com","password":"whatever-it-is"}')
      .expect(400);
    expect(surrogate.body.message).toBe('Text must be valid Unicode.');
    await request(t.http)
      .get('/api/chats?archived=%00')
      .set(as(user.accessToken))
      .set('X-Company-Id', user.companyId)
      .expect(400);
  });

  it('refuses explicit null for optional and required fields', async () => {
    const user = await registerUser(t);
    const bio = await request(t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ bio: null })
      .expect(400);
    expect(bio.body.message).toBe('Bio must be text');
    const agent = await request(t.http)
      .post('/api/agents')
      .set(as(user.accessToken))
      .set('X-Company-Id', user.companyId)
      .send({ name: 'Helper', webhook: 'https://example.com/hook' });
    expect(agent.status).toBe(201);
    const renamed = await request(t.http)
      .patch(`/api/agents/${agent.body.id as string}`)
      .set(as(user.accessToken))
      .set('X-Company-Id', user.companyId)
      .send({ name: null })
      .expect(400);
    expect(renamed.body.message).toBe('Agent name is required');
  });
});

describe('finding 6: login CSRF', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('does not sign a browser in from a cross-site form', async () => {
    const user = await registerUser(t);
    const form = await request(t.http)
      .post('/api/auth/login')
      .type('form')
      .send({ email: user.email, password: user.password });
    expect(form.status).toBe(400);
    expect(form.headers['set-cookie']).toBeUndefined();
    const crossSite = await request(t.http)
      .post('/api/auth/login')
      .set('Origin', 'https://evil.example')
      .send({ email: user.email, password: user.password })
      .expect(403);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    await request(t.http)
      .post('/api/auth/login')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ email: user.email, password: user.password })
      .expect(403);
    await request(t.http)
      .post('/api/auth/refresh')
      .set('Origin', 'https://evil.example')
      .set('Cookie', user.refreshCookie)
      .expect(403);
    await request(t.http)
      .post('/api/auth/login')
      .set('Origin', t.config.appOrigin)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ email: user.email, password: user.password })
      .expect(200);
  });
});

describe('finding 7: a session id alone cannot end a session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ignores logout and refresh with a wrong secret; replaying a used secret still revokes', async () => {
    const user = await registerUser(t);
    const sessionId = user.refreshCookie.split('=')[1].split('.')[0];
    const forged = `sb_refresh=${sessionId}.${'A'.repeat(43)}`;
    await request(t.http).post('/api/auth/logout').set('Cookie', forged).expect(204);
    await request(t.http).post('/api/auth/refresh').set('Cookie', forged).expect(401);
    await request(t.http).get('/api/me').set(as(user.accessToken)).expect(200);

    const rotated = await request(t.http)
      .post('/api/auth/refresh')
      .set('Cookie', user.refreshCookie)
      .expect(200);
    const next = cookieFrom(rotated);
    const third = await request(t.http).post('/api/auth/refresh').set('Cookie', next).expect(200);
    // The first secret is two rotations old: replaying it is theft, and the chain ends.
    await request(t.http).post('/api/auth/refresh').set('Cookie', user.refreshCookie).expect(401);
    await request(t.http).get('/api/me').set(as(third.body.accessToken)).expect(401);
  });
});

describe('finding 8: account enumeration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(() => t.close());

  it('answers registration of a taken address like a new one, and mails its owner instead', async () => {
    const owner = newAccount();
    await request(t.http).post('/api/auth/register').send(owner).expect(202);
    await t.drain();
    const again = await request(t.http)
      .post('/api/auth/register')
      .send({ ...newAccount(), email: owner.email.toUpperCase() })
      .expect(202);
    expect(again.body).toEqual({ verificationRequired: true, email: owner.email.toLowerCase() });
    await t.drain();
    expect(lastMailTo(t, owner.email.toLowerCase())).toContain('already has one');
  });

  it('answers forgot-password alike for known and unknown addresses', async () => {
    const unknown = await request(t.http)
      .post('/api/auth/forgot-password')
      .send({ email: uniqueEmail('nobody') })
      .expect(202);
    const owner = newAccount();
    await request(t.http).post('/api/auth/register').send(owner).expect(202);
    await t.drain();
    const known = await request(t.http)
      .post('/api/auth/forgot-password')
      .send({ email: owner.email })
      .expect(202);
    expect(known.body).toEqual(unknown.body);
  });
});

describe('finding 9: smaller holes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses an access token without exp', async () => {
    const user = await registerUser(t);
    const claims = t.app.get(AccessTokenService).verify(user.accessToken);
    const noExp = jwt.sign({ sid: claims!.sid }, t.config.jwtSecret, {
      subject: claims!.sub,
      algorithm: 'HS256',
      audience: 'switchboard-api',
      issuer: 'switchboard',
    });
    await request(t.http).get('/api/me').set(as(noExp)).expect(401);
  });

  it('refuses a socket whose Origin has the right host but another scheme', async () => {
    const user = await registerUser(t);
    const wrongScheme = t.baseUrl.replace('http://', 'https://');
    await expect(connectSocket(t.baseUrl, user.accessToken, { origin: wrongScheme })).rejects.toThrow(
      'origin not allowed',
    );
    const ok = await connectSocket(t.baseUrl, user.accessToken, { origin: t.baseUrl });
    ok.close();
  });
});
