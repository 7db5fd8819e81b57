import request from 'supertest';
import { cookieFrom, lastMailTo, registerUser, useTestApp, uniqueEmail } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { registrationBody } from '../../test/identities.test-util';
import { connectSocket } from '../../test/realtime.test-util';
import { AccessTokenService } from './access-token.service';
import jwt from 'jsonwebtoken';

// Regression tests for an attacker's run against sign-up and sessions, findings 3 to 8: rate limits,
// hostile bodies, login CSRF, session secrets and account enumeration.

describe('finding 3: rate limits per address, per account and per user', () => {
  const app = useTestApp({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: 'true' });

  it('stops one address trying many emails', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await request(app.t.http)
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
      last = await request(app.t.http)
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
    const user = await registerUser(app.t, {}, { 'X-Forwarded-For': '198.51.100.200' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(app.t.http)
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
      const res = await request(app.t.http)
        .post('/api/auth/register')
        .set('X-Forwarded-For', '198.51.100.77')
        .send({ ...registrationBody(), password: 'x' }); // refused by validation: still counted, nothing written
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('limits what one signed-in user can make the server do', async () => {
    const user = await registerUser(app.t, {}, { 'X-Forwarded-For': '198.51.100.201' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await request(app.t.http)
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
  const app = useTestApp();

  it('refuses deeply nested JSON before parsing it, on public endpoints too', async () => {
    const nested = '['.repeat(40_000) + ']'.repeat(40_000);
    for (const path of ['/api/auth/login', '/api/auth/register', '/api/auth/forgot-password']) {
      const res = await request(app.t.http).post(path).set('Content-Type', 'application/json').send(nested);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The request body is nested too deeply.');
    }
    // Brackets inside strings are text, not nesting.
    await request(app.t.http)
      .post('/api/auth/login')
      .send({ email: 'a@b.co', password: '['.repeat(200) })
      .expect(401);
  });

  it('refuses NUL characters and lone surrogates anywhere in a body or query', async () => {
    const user = await registerUser(app.t);
    const nul = await request(app.t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ bio: 'a\u0000b' })
      .expect(400);
    expect(nul.body.message).toBe('Text must not contain NUL characters.');
    const surrogate = await request(app.t.http)
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email":"\\ud800@example.com","password":"whatever-it-is"}')
      .expect(400);
    expect(surrogate.body.message).toBe('Text must be valid Unicode.');
    await request(app.t.http)
      .get('/api/chats?archived=%00')
      .set(as(user.accessToken))
      .set('X-Company-Id', user.companyId)
      .expect(400);
  });

  it('refuses explicit null for optional and required fields', async () => {
    const user = await registerUser(app.t);
    const bio = await request(app.t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ bio: null })
      .expect(400);
    expect(bio.body.message).toBe('Bio must be text');
    const agent = await request(app.t.http)
      .post('/api/agents')
      .set(as(user.accessToken))
      .set('X-Company-Id', user.companyId)
      .send({ name: 'Helper', webhook: 'https://example.com/hook' });
    expect(agent.status).toBe(201);
    const renamed = await request(app.t.http)
      .patch(`/api/agents/${agent.body.id as string}`)
      .set(as(user.accessToken))
      .set('X-Company-Id', user.companyId)
      .send({ name: null })
      .expect(400);
    expect(renamed.body.message).toBe('Agent name is required');
  });
});

describe('finding 6: login CSRF', () => {
  const app = useTestApp();

  it('does not sign a browser in from a cross-site form', async () => {
    const user = await registerUser(app.t);
    const form = await request(app.t.http)
      .post('/api/auth/login')
      .type('form')
      .send({ email: user.email, password: user.password });
    expect(form.status).toBe(400);
    expect(form.headers['set-cookie']).toBeUndefined();
    const crossSite = await request(app.t.http)
      .post('/api/auth/login')
      .set('Origin', 'https://evil.example')
      .send({ email: user.email, password: user.password })
      .expect(403);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    await request(app.t.http)
      .post('/api/auth/login')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ email: user.email, password: user.password })
      .expect(403);
    await request(app.t.http)
      .post('/api/auth/refresh')
      .set('Origin', 'https://evil.example')
      .set('Cookie', user.refreshCookie)
      .expect(403);
    await request(app.t.http)
      .post('/api/auth/login')
      .set('Origin', app.t.config.appOrigin)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ email: user.email, password: user.password })
      .expect(200);
  });
});

describe('finding 7: a session id alone cannot end a session', () => {
  const app = useTestApp();

  it('ignores logout and refresh with a wrong secret; replaying a used secret still revokes', async () => {
    const user = await registerUser(app.t);
    const sessionId = user.refreshCookie.split('=')[1].split('.')[0];
    const forged = `sb_refresh=${sessionId}.${'A'.repeat(43)}`;
    await request(app.t.http).post('/api/auth/logout').set('Cookie', forged).expect(204);
    await request(app.t.http).post('/api/auth/refresh').set('Cookie', forged).expect(401);
    await request(app.t.http).get('/api/me').set(as(user.accessToken)).expect(200);

    const rotated = await request(app.t.http)
      .post('/api/auth/refresh')
      .set('Cookie', user.refreshCookie)
      .expect(200);
    const next = cookieFrom(rotated);
    const third = await request(app.t.http).post('/api/auth/refresh').set('Cookie', next).expect(200);
    // The first secret is two rotations old: replaying it is theft, and the chain ends.
    await request(app.t.http).post('/api/auth/refresh').set('Cookie', user.refreshCookie).expect(401);
    await request(app.t.http).get('/api/me').set(as(third.body.accessToken)).expect(401);
  });
});

describe('finding 8: account enumeration', () => {
  const app = useTestApp({ REQUIRE_EMAIL_VERIFICATION: 'true' });

  it('answers registration of a taken address like a new one, and mails its owner instead', async () => {
    const owner = registrationBody();
    await request(app.t.http).post('/api/auth/register').send(owner).expect(202);
    await app.t.drain();
    const again = await request(app.t.http)
      .post('/api/auth/register')
      .send({ ...registrationBody(), email: owner.email.toUpperCase() })
      .expect(202);
    expect(again.body).toEqual({ verificationRequired: true, email: owner.email.toLowerCase() });
    await app.t.drain();
    expect(lastMailTo(app.t, owner.email.toLowerCase())).toContain('already has one');
  });

  it('answers forgot-password alike for known and unknown addresses', async () => {
    const unknown = await request(app.t.http)
      .post('/api/auth/forgot-password')
      .send({ email: uniqueEmail('nobody') })
      .expect(202);
    const owner = registrationBody();
    await request(app.t.http).post('/api/auth/register').send(owner).expect(202);
    await app.t.drain();
    const known = await request(app.t.http)
      .post('/api/auth/forgot-password')
      .send({ email: owner.email })
      .expect(202);
    expect(known.body).toEqual(unknown.body);
  });
});

describe('finding 9: smaller holes', () => {
  const app = useTestApp();

  it('refuses an access token without exp', async () => {
    const user = await registerUser(app.t);
    const claims = app.t.app.get(AccessTokenService).verify(user.accessToken);
    const noExp = jwt.sign({ sid: claims!.sid }, app.t.config.jwtSecret, {
      subject: claims!.sub,
      algorithm: 'HS256',
      audience: 'switchboard-api',
      issuer: 'switchboard',
    });
    await request(app.t.http).get('/api/me').set(as(noExp)).expect(401);
  });

  it('refuses a socket whose Origin has the right host but another scheme', async () => {
    const user = await registerUser(app.t);
    const wrongScheme = app.t.baseUrl.replace('http://', 'https://');
    await expect(connectSocket(app.t.baseUrl, user.accessToken, { origin: wrongScheme })).rejects.toThrow(
      'origin not allowed',
    );
    const ok = await connectSocket(app.t.baseUrl, user.accessToken, { origin: app.t.baseUrl });
    ok.close();
  });
});
