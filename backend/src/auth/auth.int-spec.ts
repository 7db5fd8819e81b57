import request from 'supertest';
import {
  cookieFrom,
  createFreshDatabase,
  createTestApp,
  lastMailTo,
  registerUser,
  type TestApp,
  uniqueEmail,
} from '../../test/app.test-util';
import { as } from '../../test/auth';
import { AuthService } from './auth.service';

describe('auth (real PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Follows the verification link mailed at registration. */
  async function verifyByLink(email: string): Promise<void> {
    await t.drain();
    const link = /verify-email\?token=(\S+)/.exec(lastMailTo(t, email) ?? '');
    if (!link) throw new Error(`no verification mail for ${email}`);
    await request(t.http)
      .post('/api/auth/verify-email')
      .send({ token: decodeURIComponent(link[1]) })
      .expect(200);
  }

  describe('register', () => {
    it('creates an account and a company it owns, splitting the full name on spaces', async () => {
      const email = uniqueEmail('Ada');
      const res = await request(t.http)
        .post('/api/auth/register')
        .send({
          email,
          password: 'analytical-engine',
          fullName: '  Ada  King Lovelace ',
          companyName: 'Engines',
        })
        .expect(201);
      expect(res.body.user).toMatchObject({
        email: email.toLowerCase(),
        firstName: 'Ada',
        lastName: 'King Lovelace',
        name: 'Ada King Lovelace',
        avatar: '/placeholder.svg',
      });
      expect(res.body.expiresIn).toBe(900);
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('sb_refresh='),
      );
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      const me = await request(t.http).get('/api/me').set(as(res.body.accessToken)).expect(200);
      expect(me.body.companies).toEqual([expect.objectContaining({ name: 'Engines', role: 'owner' })]);
    });

    it('makes only the first account of a fresh installation a superadmin', async () => {
      const db = await createFreshDatabase();
      const fresh = await createTestApp({}, db.url);
      try {
        const first = await registerUser(fresh);
        const second = await registerUser(fresh);
        const a = await request(fresh.http).get('/api/me').set(as(first.accessToken)).expect(200);
        const b = await request(fresh.http).get('/api/me').set(as(second.accessToken)).expect(200);
        expect(a.body.user.isSuperadmin).toBe(true);
        expect(b.body.user.isSuperadmin).toBe(false);
      } finally {
        await fresh.close();
        await db.drop();
      }
    });

    it.each([
      [{}, 'Please fill in all required fields'],
      [{ email: '', password: '', fullName: '', companyName: '' }, 'Please fill in all required fields'],
      [
        { email: 'a@b.co', password: 'long-enough', fullName: '   ', companyName: 'X' },
        'Please fill in all required fields',
      ],
      [
        { email: 'not-an-email', password: 'long-enough', fullName: 'A', companyName: 'X' },
        'Please enter a valid email address',
      ],
      [
        { email: 'a@b.co', password: 'short', fullName: 'A', companyName: 'X' },
        'Password must be at least 8 characters',
      ],
      [
        { email: 'a@b.co', password: 12345678, fullName: 'A', companyName: 'X' },
        'Please fill in all required fields',
      ],
      [
        { email: 'a@b.co', password: 'long-enough', fullName: 'A', companyName: 'X', isSuperadmin: true },
        'Unknown field "isSuperadmin".',
      ],
    ])('refuses %j with a readable 400', async (body, message) => {
      const res = await request(t.http).post('/api/auth/register').send(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, error: 'VALIDATION_FAILED', message });
    });

    it('refuses an oversized or malformed body with a 4xx, not a 500', async () => {
      const big = await request(t.http)
        .post('/api/auth/register')
        .set('Content-Type', 'application/json')
        .send(
          JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(200_000), fullName: 'A', companyName: 'B' }),
        );
      expect(big.status).toBe(413);
      const bad = await request(t.http)
        .post('/api/auth/register')
        .set('Content-Type', 'application/json')
        .send('{bad');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('The request body is not valid JSON.');
    });

    it('does not say that an address is taken, and writes nothing', async () => {
      const user = await registerUser(t);
      const res = await request(t.http)
        .post('/api/auth/register')
        .send({
          email: user.email.toUpperCase(),
          password: 'another-password',
          fullName: 'Eve',
          companyName: 'Evil',
        })
        .expect(409);
      expect(res.body.message).not.toMatch(/exists|taken/i);
      const me = await request(t.http).get('/api/me').set(as(user.accessToken)).expect(200);
      expect(me.body.companies).toHaveLength(1);
    });
  });

  describe('login', () => {
    it('signs in with the right password, case-insensitive email', async () => {
      const user = await registerUser(t);
      const res = await request(t.http)
        .post('/api/auth/login')
        .send({ email: user.email.toUpperCase(), password: user.password })
        .expect(200);
      expect(res.body.user.email).toBe(user.email);
    });

    it('answers a wrong password and an unknown email identically', async () => {
      const user = await registerUser(t);
      const wrong = await request(t.http)
        .post('/api/auth/login')
        .send({ email: user.email, password: 'nope-nope' });
      const unknown = await request(t.http)
        .post('/api/auth/login')
        .send({ email: uniqueEmail('ghost'), password: 'nope-nope' });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body.message).toBe('Invalid email or password');
    });
  });

  describe('sessions', () => {
    it('refuses requests without a valid access token', async () => {
      await request(t.http).get('/api/me').expect(401);
      await request(t.http).get('/api/me').set(as('not.a.jwt')).expect(401);
      const forged = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      await request(t.http)
        .get('/api/me')
        .set(as(`${forged}.e30.`))
        .expect(401);
    });

    it('rotates the refresh token; replaying an old one revokes the whole chain', async () => {
      const user = await registerUser(t);
      const first = await request(t.http)
        .post('/api/auth/refresh')
        .set('Cookie', user.refreshCookie)
        .expect(200);
      const second = await request(t.http)
        .post('/api/auth/refresh')
        .set('Cookie', cookieFrom(first))
        .expect(200);
      const current = cookieFrom(second);
      // The very first token is two rotations old: that is a stolen copy.
      await request(t.http).post('/api/auth/refresh').set('Cookie', user.refreshCookie).expect(401);
      await request(t.http).post('/api/auth/refresh').set('Cookie', current).expect(401);
      await request(t.http).get('/api/me').set(as(second.body.accessToken)).expect(401);
    });

    it('logout revokes the session and its access tokens', async () => {
      const user = await registerUser(t);
      await request(t.http).get('/api/me').set(as(user.accessToken)).expect(200);
      await request(t.http).post('/api/auth/logout').set('Cookie', user.refreshCookie).expect(204);
      await request(t.http).get('/api/me').set(as(user.accessToken)).expect(401);
      await request(t.http).post('/api/auth/refresh').set('Cookie', user.refreshCookie).expect(401);
    });

    it('refresh without a cookie is a 401 with a readable message', async () => {
      const res = await request(t.http).post('/api/auth/refresh').expect(401);
      expect(res.body.message).toMatch(/sign in/i);
    });
  });

  describe('password reset', () => {
    it('emails a single-use link that sets a new password and ends every session', async () => {
      const user = await registerUser(t);
      const res = await request(t.http)
        .post('/api/auth/forgot-password')
        .send({ email: user.email })
        .expect(202);
      expect(res.body).toEqual({ ok: true });
      await t.drain();
      const mail = lastMailTo(t, user.email);
      expect(mail).toContain(`${t.config.appOrigin}/reset-password?token=`);
      const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail as string)![1]);
      expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);

      await request(t.http)
        .post('/api/auth/reset-password')
        .send({ token, password: 'brand-new-password' })
        .expect(200);
      await request(t.http).get('/api/me').set(as(user.accessToken)).expect(401);
      const again = await request(t.http)
        .post('/api/auth/reset-password')
        .send({ token, password: 'another-password' })
        .expect(400);
      expect(again.body.message).toBe('This password reset link is invalid or has expired.');
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: user.email, password: user.password })
        .expect(401);
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: user.email, password: 'brand-new-password' })
        .expect(200);
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const email = uniqueEmail('nobody');
      const res = await request(t.http).post('/api/auth/forgot-password').send({ email }).expect(202);
      expect(res.body).toEqual({ ok: true });
      await t.drain();
      expect(lastMailTo(t, email)).toBeNull();
    });

    it('refuses a made-up token and a short password', async () => {
      await request(t.http)
        .post('/api/auth/reset-password')
        .send({ token: 'made-up', password: 'long-enough-pw' })
        .expect(400);
      const res = await request(t.http)
        .post('/api/auth/reset-password')
        .send({ token: 'x', password: 'short' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Password must be at least 8 characters');
    });
  });

  describe('change password', () => {
    it('checks the current password, ends other sessions and keeps this one', async () => {
      const user = await registerUser(t);
      const other = await request(t.http)
        .post('/api/auth/login')
        .send({ email: user.email, password: user.password })
        .expect(200);
      const wrong = await request(t.http)
        .post('/api/me/password')
        .set(as(user.accessToken))
        .send({ currentPassword: 'not-it-at-all', newPassword: 'new-password-1' })
        .expect(400);
      expect(wrong.body.message).toBe('Current password is incorrect');
      const ok = await request(t.http)
        .post('/api/me/password')
        .set(as(user.accessToken))
        .send({ currentPassword: user.password, newPassword: 'new-password-1' })
        .expect(200);
      await request(t.http).get('/api/me').set(as(other.body.accessToken)).expect(401);
      await request(t.http).get('/api/me').set(as(ok.body.accessToken)).expect(200);
      await request(t.http).post('/api/auth/refresh').set('Cookie', cookieFrom(ok)).expect(200);
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: user.email, password: 'new-password-1' })
        .expect(200);
    });
  });

  describe('Google accounts', () => {
    const auth = () => t.app.get(AuthService);

    it('creates a new account with a company for a verified Google identity, then finds it by sub', async () => {
      const email = uniqueEmail('google');
      const sub = `sub-${email}`;
      const first = await auth().googleLogin({
        sub,
        email,
        emailVerified: true,
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      const again = await auth().googleLogin({
        sub,
        email: 'changed@example.com',
        emailVerified: true,
        firstName: 'G',
        lastName: 'H',
      });
      expect(again.user.id).toBe(first.user.id);
      const me = await request(t.http).get('/api/me').set(as(first.accessToken)).expect(200);
      expect(me.body.companies).toEqual([
        expect.objectContaining({ name: "Grace's Company", role: 'owner' }),
      ]);
    });

    it('links an existing account only when Google has verified the email and the account too', async () => {
      const user = await registerUser(t);
      await expect(
        auth().googleLogin({
          sub: `x-${user.email}`,
          email: user.email,
          emailVerified: false,
          firstName: 'A',
          lastName: 'B',
        }),
      ).rejects.toThrow('Google did not confirm this email address');
      await verifyByLink(user.email);
      const linked = await auth().googleLogin({
        sub: `y-${user.email}`,
        email: user.email,
        emailVerified: true,
        firstName: 'A',
        lastName: 'B',
      });
      expect(linked.user.id).toBe(user.userId);
    });
  });

  it('reports whether Google sign-in is configured, and hides its routes when not', async () => {
    const res = await request(t.http).get('/api/auth/providers').expect(200);
    expect(res.body).toEqual({ google: false });
    await request(t.http).get('/api/auth/google').expect(404);
  });
});
