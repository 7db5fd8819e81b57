import request from 'supertest';
import { uniqueEmail } from '../../test/app.test-util';
import { type Account, nextClientAddress, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { AuthService, GOOGLE_ACCOUNT_UNVERIFIED, INVALID_CREDENTIALS } from '../auth/auth.service';
import { UserEntity } from '../profiles/user.entity';
import { useAuditApp } from '../../test/audit.test-util';

/**
 * Each audited sign-in and account change, driven through the API, writes exactly one entry in the
 * transaction of its change, and none when the change is refused.
 */
describe('audit log: sign-ins and account changes (real PostgreSQL)', () => {
  const audit = useAuditApp();
  const { written, only, from, mailToken } = audit;

  describe('sign-in', () => {
    let account: Account;
    beforeEach(async () => {
      account = await registerAccount(audit.t, 'aud-signin');
    });

    it('records a sign-in: the user as actor and target, the client address, the method', async () => {
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(audit.t.http)
            .post('/api/auth/login')
            .set(from(ip))
            .send({ email: account.email, password: account.password })
            .expect(200),
        ),
      );
      expect(entry).toMatchObject({
        action: 'auth.sign_in',
        actorId: account.userId,
        actorLabel: account.email,
        targetType: 'user',
        targetId: account.userId,
        targetLabel: account.email,
        companyId: null,
        ip,
        details: { method: 'password' },
      });
    });

    it('records a failed sign-in, with the address tried and no actor, and still answers 401', async () => {
      const ip = nextClientAddress();
      let wrongPassword: request.Response | undefined;
      const entry = only(
        await written(async () => {
          wrongPassword = await request(audit.t.http)
            .post('/api/auth/login')
            .set(from(ip))
            .send({ email: account.email.toUpperCase(), password: 'not the password' })
            .expect(401);
        }),
      );
      expect(wrongPassword?.body.message).toBe(INVALID_CREDENTIALS);
      expect(entry).toMatchObject({
        action: 'auth.sign_in_failed',
        actorId: null,
        actorLabel: account.email,
        targetType: null,
        companyId: null,
        ip,
        details: { method: 'password' },
      });

      // An address with no account: the same answer, the same one entry.
      const nobody = uniqueEmail('aud-nobody');
      let unknown: request.Response | undefined;
      const other = only(
        await written(async () => {
          unknown = await request(audit.t.http)
            .post('/api/auth/login')
            .set(from(ip))
            .send({ email: nobody, password: 'whatever it is' })
            .expect(401);
        }),
      );
      expect(unknown?.body).toEqual(wrongPassword?.body);
      expect(other).toMatchObject({ action: 'auth.sign_in_failed', actorId: null, actorLabel: nobody, ip });
    });

    it("records a disabled account's sign-in as a failed one, and no sign-in", async () => {
      await audit.db.getRepository(UserEntity).update(account.userId, { disabledAt: new Date() });
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(audit.t.http)
            .post('/api/auth/login')
            .set(from(ip))
            .send({ email: account.email, password: account.password })
            .expect(403),
        ),
      );
      expect(entry).toMatchObject({
        action: 'auth.sign_in_failed',
        actorId: null,
        actorLabel: account.email,
        ip,
        details: { method: 'password', reason: 'account_disabled' },
      });
    });

    it('records Google sign-ins, and a refused Google link as a failed sign-in', async () => {
      const google = audit.t.app.get(AuthService);
      const email = uniqueEmail('aud-google');
      const ip = nextClientAddress();
      let userId = '';
      const created = await written(async () => {
        const signedIn = await google.googleLogin(
          { sub: `sub-${email}`, email, emailVerified: true, firstName: 'Gia', lastName: 'Google' },
          undefined,
          ip,
        );
        userId = signedIn.user.id;
      });
      expect(created.map((e) => [e.action, e.actorId, e.ip, e.details])).toEqual([
        ['company.created', userId, ip, { via: 'registration' }],
        ['auth.sign_in', userId, ip, { method: 'google' }],
      ]);
      // Another Google account claiming the address of an account whose address is unverified.
      const refused = only(
        await written(() =>
          expect(
            google.googleLogin(
              {
                sub: `other-${account.email}`,
                email: account.email,
                emailVerified: true,
                firstName: 'Not',
                lastName: 'Owner',
              },
              undefined,
              ip,
            ),
          ).rejects.toThrow(GOOGLE_ACCOUNT_UNVERIFIED),
        ),
      );
      expect(refused).toMatchObject({
        action: 'auth.sign_in_failed',
        actorId: null,
        actorLabel: account.email,
        ip,
        details: { method: 'google', reason: GOOGLE_ACCOUNT_UNVERIFIED },
      });
    });

    it('a refused request that never reached the password check writes nothing', async () => {
      expect(
        await written(() =>
          request(audit.t.http).post('/api/auth/login').set(from(nextClientAddress())).send({}).expect(400),
        ),
      ).toEqual([]);
    });
  });

  describe('account changes', () => {
    let account: Account;
    beforeEach(async () => {
      account = await registerAccount(audit.t, 'aud-account');
    });

    it('records a password change, and nothing when the current password is wrong', async () => {
      const ip = nextClientAddress();
      const change = (currentPassword: string, status: number) =>
        request(audit.t.http)
          .post('/api/me/password')
          .set(from(ip, { Authorization: `Bearer ${account.accessToken}` }))
          .send({ currentPassword, newPassword: 'a brand new long password' })
          .expect(status);
      expect(await written(() => change('not the password', 400))).toEqual([]);
      const entry = only(await written(() => change(account.password, 200)));
      expect(entry).toMatchObject({
        action: 'auth.password_changed',
        actorId: account.userId,
        actorLabel: account.email,
        targetId: account.userId,
        ip,
      });
      expect(JSON.stringify(entry.details)).not.toContain('brand new');
    });

    it('records a completed password reset (no actor: the emailed link did it), and nothing for a bad link', async () => {
      await request(audit.t.http)
        .post('/api/auth/forgot-password')
        .set(from(nextClientAddress()))
        .send({ email: account.email })
        .expect(202);
      await audit.t.drain();
      const token = mailToken(account.email, '/reset-password');
      const ip = nextClientAddress();
      const reset = (value: string, status: number) =>
        request(audit.t.http)
          .post('/api/auth/reset-password')
          .set(from(ip))
          .send({ token: value, password: 'the reset long password' })
          .expect(status);
      expect(await written(() => reset('not-a-reset-token', 400))).toEqual([]);
      const entry = only(await written(() => reset(token, 200)));
      expect(entry).toMatchObject({
        action: 'auth.password_reset',
        actorId: null,
        actorLabel: null,
        targetType: 'user',
        targetId: account.userId,
        targetLabel: account.email,
        ip,
        details: {},
      });
    });

    it('records a confirmed email change with the old and new address', async () => {
      const newEmail = uniqueEmail('aud-moved');
      // Asking for the change changes nothing yet: no entry.
      expect(
        await written(() =>
          request(audit.t.http)
            .patch('/api/me')
            .set(as(account, null))
            .send({ email: newEmail, currentPassword: account.password })
            .expect(200),
        ),
      ).toEqual([]);
      await audit.t.drain();
      const token = mailToken(newEmail, '/confirm-email');
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(audit.t.http).post('/api/auth/confirm-email').set(from(ip)).send({ token }).expect(200),
        ),
      );
      expect(entry).toMatchObject({
        action: 'auth.email_changed',
        actorId: null,
        targetId: account.userId,
        targetLabel: newEmail,
        ip,
        details: { from: account.email, to: newEmail },
      });
    });
  });
});
