import request from 'supertest';
import { tokenFromMail, registerUser, useTestApp, uniqueEmail } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { type Account, registrationBody } from '../../test/identities.test-util';
import { invite } from '../../test/invitations.test-util';
import { connectSocket } from '../../test/realtime.test-util';
import { AuthService, GOOGLE_ACCOUNT_UNVERIFIED } from './auth.service';

// Regression tests for an attacker's run against sign-up and sessions, one per finding (1 and 2 here:
// email verification and account linking, revoked sessions and socket recovery; the rest in
// account-security.limits.int-spec.ts).

describe('finding 1: verified email and account linking', () => {
  describe('with REQUIRE_EMAIL_VERIFICATION=false (the default)', () => {
    const app = useTestApp();

    it('signs the new account in, unverified, and mails a link that verifies it once', async () => {
      const account = registrationBody();
      const res = await request(app.t.http).post('/api/auth/register').send(account).expect(201);
      expect(res.body.user).toMatchObject({ emailVerified: false, pendingEmail: null });
      await app.t.drain();
      const token = tokenFromMail(app.t, account.email.toLowerCase(), '/verify-email');
      await request(app.t.http).post('/api/auth/verify-email').send({ token }).expect(200);
      const again = await request(app.t.http).post('/api/auth/verify-email').send({ token }).expect(400);
      expect(again.body.message).toBe('This verification link is invalid or has expired.');
      const me = await request(app.t.http).get('/api/me').set(as(res.body.accessToken)).expect(200);
      expect(me.body.user.emailVerified).toBe(true);
    });

    it('does not link Google into an unverified account registered with a password (pre-hijacking)', async () => {
      const attacker = await registerUser(app.t);
      const google = app.t.app.get(AuthService);
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
      const me = await request(app.t.http).get('/api/me').set(as(attacker.accessToken)).expect(200);
      expect(me.body.user.emailVerified).toBe(false);
    });

    it('lets the real owner prove the address with a password reset, which ends the other sessions', async () => {
      const attacker = await registerUser(app.t);
      await request(app.t.http).post('/api/auth/forgot-password').send({ email: attacker.email }).expect(202);
      await app.t.drain();
      const token = tokenFromMail(app.t, attacker.email, '/reset-password');
      await request(app.t.http)
        .post('/api/auth/reset-password')
        .send({ token, password: 'the-real-owner-password' })
        .expect(200);
      await request(app.t.http).get('/api/me').set(as(attacker.accessToken)).expect(401);
      const linked = await app.t.app.get(AuthService).googleLogin({
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
      const error = await app.t.app
        .get(AuthService)
        .googleLogin({
          sub: `sub-${Date.now()}`,
          email: (await registerUser(app.t)).email,
          emailVerified: true,
          firstName: 'A',
          lastName: 'B',
        })
        .catch((e: unknown) => e);
      expect((error as Error).constructor.name).toBe('GoogleAccountUnverifiedError');
    });
  });

  describe('with REQUIRE_EMAIL_VERIFICATION=true', () => {
    const app = useTestApp({ REQUIRE_EMAIL_VERIFICATION: 'true' });

    it("an invited sign-up through a manager's copy of the link signs nobody in until the mailed link sets the password", async () => {
      const managerAccount = registrationBody();
      await request(app.t.http).post('/api/auth/register').send(managerAccount).expect(202);
      await app.t.drain();
      const managerEmail = managerAccount.email.toLowerCase();
      const verify = tokenFromMail(app.t, managerEmail, '/verify-email');
      await request(app.t.http).post('/api/auth/verify-email').send({ token: verify }).expect(200);
      const login = await request(app.t.http)
        .post('/api/auth/login')
        .send({ email: managerEmail, password: managerAccount.password })
        .expect(200);
      const me = await request(app.t.http).get('/api/me').set(as(login.body.accessToken)).expect(200);
      const manager = {
        accessToken: login.body.accessToken as string,
        companyId: me.body.companies[0].id as string,
      } as Account;
      const email = uniqueEmail('req-invitee');
      const { token } = await invite(app.t, manager, manager.companyId, email);
      const res = await request(app.t.http)
        .post('/api/auth/register-invited')
        .send({ token, firstName: 'Ada', lastName: 'L', password: 'attacker chosen password' })
        .expect(202);
      expect(res.body).toEqual({ verificationRequired: true, email });
      expect(res.headers['set-cookie']).toBeUndefined();
      const refused = await request(app.t.http)
        .post('/api/auth/login')
        .send({ email, password: 'attacker chosen password' })
        .expect(403);
      expect(refused.body.error).toBe('EMAIL_NOT_VERIFIED');
      await app.t.drain();
      const reset = tokenFromMail(app.t, email, '/reset-password');
      await request(app.t.http)
        .post('/api/auth/reset-password')
        .send({ token: reset, password: 'the real owner password' })
        .expect(200);
      await request(app.t.http)
        .post('/api/auth/login')
        .send({ email, password: 'attacker chosen password' })
        .expect(401);
      const signedIn = await request(app.t.http)
        .post('/api/auth/login')
        .send({ email, password: 'the real owner password' })
        .expect(200);
      expect(signedIn.body.user).toMatchObject({ email, emailVerified: true });
    });

    it('refuses sign-in until the link is followed, and resends the link on request', async () => {
      const account = registrationBody();
      const email = account.email.toLowerCase();
      const res = await request(app.t.http).post('/api/auth/register').send(account).expect(202);
      expect(res.body).toEqual({ verificationRequired: true, email });
      expect(res.headers['set-cookie']).toBeUndefined();
      await app.t.drain(); // the account is created by a job, out of sight of the answer
      const refused = await request(app.t.http)
        .post('/api/auth/login')
        .send({ email, password: account.password })
        .expect(403);
      expect(refused.body).toMatchObject({
        error: 'EMAIL_NOT_VERIFIED',
        message: 'Please verify your email first',
      });
      // A wrong password still says only "invalid", never "not verified".
      await request(app.t.http)
        .post('/api/auth/login')
        .send({ email, password: 'wrong-password' })
        .expect(401);

      await app.t.drain();
      const first = tokenFromMail(app.t, email, '/verify-email');
      await request(app.t.http).post('/api/auth/resend-verification').send({ email }).expect(202);
      await app.t.drain();
      const second = tokenFromMail(app.t, email, '/verify-email');
      expect(second).not.toBe(first);
      await request(app.t.http).post('/api/auth/verify-email').send({ token: second }).expect(200);
      await request(app.t.http)
        .post('/api/auth/login')
        .send({ email, password: account.password })
        .expect(200);
      // Verified: a resend sends nothing new.
      await request(app.t.http).post('/api/auth/resend-verification').send({ email }).expect(202);
      await app.t.drain();
      expect(tokenFromMail(app.t, email, '/verify-email')).toBe(second);
    });
  });
});

describe('finding 2: a revoked session regains no live events through connection state recovery', () => {
  const app = useTestApp();

  it('refuses the recovering socket of a session that was logged out while it was away', async () => {
    const user = await registerUser(app.t);
    const log = await connectSocket(app.t.baseUrl, user.accessToken);
    try {
      // Recovery needs a session id and an offset: both come with the first packets.
      await request(app.t.http)
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

      await request(app.t.http).post('/api/auth/logout').set('Cookie', user.refreshCookie).expect(204);
      const before = log.events.length;
      await request(app.t.http)
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
