import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, lastMailTo, type TestApp, uniqueEmail } from '../../test/app.test-util';
import { newAgent } from '../../test/factories';
import { type Account, nextClientAddress, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { invite, joinAsNewMember } from '../../test/invitations.test-util';
import { AuthService, GOOGLE_ACCOUNT_UNVERIFIED, INVALID_CREDENTIALS } from '../auth/auth.service';
import { CompanyEntity } from '../companies/company.entity';
import { CompanyUserEntity } from '../companies/company-user.entity';
import type { AuditEntryView, AuditPage } from '../contracts/audit';
import { UserEntity } from '../profiles/user.entity';
import { UsersService } from '../profiles/users.service';
import { AuditEntryEntity } from './audit-entry.entity';

/**
 * The audit log end to end: each audited action, driven through the API, writes exactly one entry in
 * the transaction of its change (none when the change is refused, none left when it rolls back), and
 * the two read routes filter, page and scope it.
 */
describe('audit log (real PostgreSQL)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The newest entry id now: what a test's action writes comes after it. */
  const mark = async (): Promise<string> => {
    const row = await db
      .getRepository(AuditEntryEntity)
      .createQueryBuilder('a')
      .select('COALESCE(MAX(a.id), 0)::text', 'max')
      .getRawOne<{ max: string }>();
    return row?.max ?? '0';
  };
  const entriesSince = (since: string): Promise<AuditEntryEntity[]> =>
    db
      .getRepository(AuditEntryEntity)
      .createQueryBuilder('a')
      .where('a.id > :since', { since })
      .orderBy('a.id', 'ASC')
      .getMany();
  /** Runs the action and returns the entries it wrote. */
  const written = async (action: () => Promise<unknown>): Promise<AuditEntryEntity[]> => {
    const since = await mark();
    await action();
    return entriesSince(since);
  };
  const only = (entries: AuditEntryEntity[]): AuditEntryEntity => {
    expect(entries).toHaveLength(1);
    return entries[0];
  };
  const from = (ip: string, headers: Record<string, string> = {}) => ({ ...headers, 'X-Forwarded-For': ip });
  const mailToken = (email: string, path: string): string => {
    const match = new RegExp(`${path}\\?token=(\\S+)`).exec(lastMailTo(t, email) ?? '');
    if (!match) throw new Error(`no ${path} link mailed to ${email}`);
    return decodeURIComponent(match[1]);
  };
  const companyName = async (companyId: string): Promise<string> => {
    return (await db.getRepository(CompanyEntity).findOneByOrFail({ id: companyId })).name;
  };

  describe('sign-in', () => {
    let account: Account;
    beforeEach(async () => {
      account = await registerAccount(t, 'aud-signin');
    });

    it('records a sign-in: the user as actor and target, the client address, the method', async () => {
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(t.http)
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
          wrongPassword = await request(t.http)
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
          unknown = await request(t.http)
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
      await db.getRepository(UserEntity).update(account.userId, { disabledAt: new Date() });
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(t.http)
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
      const google = t.app.get(AuthService);
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
          request(t.http).post('/api/auth/login').set(from(nextClientAddress())).send({}).expect(400),
        ),
      ).toEqual([]);
    });
  });

  describe('account changes', () => {
    let account: Account;
    beforeEach(async () => {
      account = await registerAccount(t, 'aud-account');
    });

    it('records a password change, and nothing when the current password is wrong', async () => {
      const ip = nextClientAddress();
      const change = (currentPassword: string, status: number) =>
        request(t.http)
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
      await request(t.http)
        .post('/api/auth/forgot-password')
        .set(from(nextClientAddress()))
        .send({ email: account.email })
        .expect(202);
      await t.drain();
      const token = mailToken(account.email, '/reset-password');
      const ip = nextClientAddress();
      const reset = (value: string, status: number) =>
        request(t.http)
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
          request(t.http)
            .patch('/api/me')
            .set(as(account, null))
            .send({ email: newEmail, currentPassword: account.password })
            .expect(200),
        ),
      ).toEqual([]);
      await t.drain();
      const token = mailToken(newEmail, '/confirm-email');
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(t.http).post('/api/auth/confirm-email').set(from(ip)).send({ token }).expect(200),
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

  describe('company administration', () => {
    let owner: Account;
    let admin: Account;
    let member: Account;
    let name: string;
    beforeEach(async () => {
      owner = await registerAccount(t, 'aud-owner');
      admin = await joinAsNewMember(t, owner, owner.companyId, 'admin');
      member = await joinAsNewMember(t, owner, owner.companyId, 'user');
      name = await companyName(owner.companyId);
    });
    const asFrom = (account: Account, ip: string) => from(ip, as(account, owner.companyId));

    it('records a role change with the old and new role, and nothing when it is refused or changes nothing', async () => {
      const ip = nextClientAddress();
      const setRole = (caller: Account, target: Account, role: string, status: number) =>
        request(t.http)
          .patch(`/api/company/members/${target.userId}`)
          .set(asFrom(caller, ip))
          .send({ role })
          .expect(status);
      // An admin cannot make an owner; the member is already a 'user'.
      expect(await written(() => setRole(admin, member, 'owner', 403))).toEqual([]);
      expect(await written(() => setRole(owner, member, 'user', 200))).toEqual([]);
      const entry = only(await written(() => setRole(admin, member, 'admin', 200)));
      expect(entry).toMatchObject({
        action: 'member.role_changed',
        actorId: admin.userId,
        actorLabel: admin.email,
        targetType: 'user',
        targetId: member.userId,
        targetLabel: member.email,
        companyId: owner.companyId,
        companyName: name,
        ip,
        details: { from: 'user', to: 'admin' },
      });
    });

    it('records a member removed, and nothing when the last owner would go', async () => {
      const ip = nextClientAddress();
      const remove = (target: Account, status: number) =>
        request(t.http).delete(`/api/company/members/${target.userId}`).set(asFrom(owner, ip)).expect(status);
      expect(await written(() => remove(owner, 409))).toEqual([]);
      const entry = only(await written(() => remove(member, 204)));
      expect(entry).toMatchObject({
        action: 'member.removed',
        actorId: owner.userId,
        targetId: member.userId,
        targetLabel: member.email,
        companyId: owner.companyId,
        companyName: name,
        ip,
        details: { role: 'user' },
      });
    });

    it('records invitations created, resent, deleted and accepted (by an account and by a sign-up)', async () => {
      const ip = nextClientAddress();
      const email = uniqueEmail('aud-invitee');
      let created: { id: string } | undefined;
      const createdEntry = only(
        await written(async () => {
          const res = await request(t.http)
            .post('/api/company/invitations')
            .set(asFrom(admin, ip))
            .send({ email, role: 'admin' })
            .expect(201);
          created = res.body.invitation as { id: string };
        }),
      );
      const invitationFacts = {
        targetType: 'invitation',
        targetId: created?.id,
        targetLabel: email,
        companyId: owner.companyId,
        companyName: name,
        details: { email, role: 'admin' },
      };
      expect(createdEntry).toMatchObject({
        action: 'invitation.created',
        actorId: admin.userId,
        ip,
        ...invitationFacts,
      });
      // The same address again: refused (already pending), no entry.
      expect(
        await written(() =>
          request(t.http)
            .post('/api/company/invitations')
            .set(asFrom(admin, ip))
            .send({ email, role: 'user' })
            .expect(409),
        ),
      ).toEqual([]);

      const resent = only(
        await written(() =>
          request(t.http)
            .post(`/api/company/invitations/${created?.id}/resend`)
            .set(asFrom(owner, ip))
            .expect(200),
        ),
      );
      expect(resent).toMatchObject({
        action: 'invitation.resent',
        actorId: owner.userId,
        ...invitationFacts,
      });

      const deleted = only(
        await written(() =>
          request(t.http)
            .delete(`/api/company/invitations/${created?.id}`)
            .set(asFrom(owner, ip))
            .expect(204),
        ),
      );
      expect(deleted).toMatchObject({
        action: 'invitation.deleted',
        actorId: owner.userId,
        ...invitationFacts,
      });
      // Gone: deleting again is refused and writes nothing.
      expect(
        await written(() =>
          request(t.http)
            .delete(`/api/company/invitations/${created?.id}`)
            .set(asFrom(owner, ip))
            .expect(404),
        ),
      ).toEqual([]);

      // Accepted by someone who has an account, signed in.
      const elsewhere = await registerAccount(t, 'aud-joiner');
      const { id, token } = await invite(t, owner, owner.companyId, elsewhere.email, 'user');
      const acceptIp = nextClientAddress();
      const accepted = only(
        await written(() =>
          request(t.http)
            .post('/api/invitations/accept')
            .set(from(acceptIp, { Authorization: `Bearer ${elsewhere.accessToken}` }))
            .send({ token })
            .expect(200),
        ),
      );
      expect(accepted).toMatchObject({
        action: 'invitation.accepted',
        actorId: elsewhere.userId,
        actorLabel: elsewhere.email,
        targetType: 'invitation',
        targetId: id,
        targetLabel: elsewhere.email,
        companyId: owner.companyId,
        companyName: name,
        ip: acceptIp,
        details: { email: elsewhere.email, role: 'user', joined: true },
      });

      // Accepted by signing up with the invitation: the acceptance, then the sign-in.
      const newcomer = uniqueEmail('aud-newcomer');
      const second = await invite(t, owner, owner.companyId, newcomer, 'admin');
      const signUpIp = nextClientAddress();
      let userId = '';
      const entries = await written(async () => {
        const res = await request(t.http)
          .post('/api/auth/register-invited')
          .set(from(signUpIp))
          .send({
            token: second.token,
            firstName: 'New',
            lastName: 'Comer',
            password: 'correct horse battery',
          })
          .expect(201);
        userId = res.body.user.id as string;
      });
      expect(entries.map((e) => [e.action, e.actorId, e.actorLabel, e.ip])).toEqual([
        ['invitation.accepted', userId, newcomer, signUpIp],
        ['auth.sign_in', userId, newcomer, signUpIp],
      ]);
      expect(entries[0]).toMatchObject({ targetId: second.id, companyId: owner.companyId });
      expect(entries[1].details).toEqual({ method: 'invitation' });
    });

    it('records an agent deleted, with its name', async () => {
      const agent = await newAgent(
        t.app,
        { userId: owner.userId, companyId: owner.companyId },
        { name: 'Audited agent' },
      );
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(t.http).delete(`/api/agents/${agent.id}`).set(asFrom(owner, ip)).expect(204),
        ),
      );
      expect(entry).toMatchObject({
        action: 'agent.deleted',
        actorId: owner.userId,
        targetType: 'agent',
        targetId: agent.id,
        targetLabel: 'Audited agent',
        companyId: owner.companyId,
        companyName: name,
        ip,
      });
      // The default agent cannot be deleted: nothing recorded.
      expect(
        await written(() =>
          request(t.http).delete('/api/agents/default-agent').set(asFrom(owner, ip)).expect(400),
        ),
      ).toEqual([]);
    });
  });

  it('records a company created, by registration and by Add Company', async () => {
    const ip = nextClientAddress();
    const email = uniqueEmail('aud-founder');
    let userId = '';
    const registered = await written(async () => {
      const res = await request(t.http)
        .post('/api/auth/register')
        .set(from(ip))
        .send({
          email,
          password: 'correct horse battery',
          fullName: 'Fay Founder',
          companyName: 'Founded Co',
        })
        .expect(201);
      userId = res.body.user.id as string;
    });
    expect(registered.map((e) => e.action)).toEqual(['company.created', 'auth.sign_in']);
    expect(registered[0]).toMatchObject({
      actorId: userId,
      actorLabel: email,
      targetType: 'company',
      targetLabel: 'Founded Co',
      companyName: 'Founded Co',
      ip,
      details: { via: 'registration' },
    });
    expect(registered[1].details).toEqual({ method: 'registration' });

    const login = await request(t.http)
      .post('/api/auth/login')
      .set(from(ip))
      .send({ email, password: 'correct horse battery' })
      .expect(200);
    let companyId = '';
    const entry = only(
      await written(async () => {
        const res = await request(t.http)
          .post('/api/companies')
          .set(from(ip, { Authorization: `Bearer ${login.body.accessToken as string}` }))
          .send({ name: '  Second Co ' })
          .expect(201);
        companyId = res.body.id as string;
      }),
    );
    expect(entry).toMatchObject({
      action: 'company.created',
      actorId: userId,
      actorLabel: email,
      targetType: 'company',
      targetId: companyId,
      targetLabel: 'Second Co',
      companyId,
      companyName: 'Second Co',
      ip,
      details: {},
    });
  });

  describe('rolled back with its change', () => {
    /**
     * Makes the transaction fail at COMMIT, after everything in it (the audit entry included) was
     * written: a deferred constraint trigger raising a unique violation for the rows `when` picks.
     */
    const failAtCommit = async (table: string, when: string): Promise<() => Promise<void>> => {
      const name = `audit_test_fail_${table}`;
      await db.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$
        BEGIN RAISE unique_violation USING MESSAGE = 'forced by the audit test'; END $$ LANGUAGE plpgsql`);
      await db.query(`CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT OR UPDATE ON ${table}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`);
      return async () => {
        await db.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
        await db.query(`DROP FUNCTION IF EXISTS ${name}()`);
      };
    };

    it('a role change that fails at commit leaves neither the change nor its entry', async () => {
      const owner = await registerAccount(t, 'aud-rollback');
      const member = await joinAsNewMember(t, owner, owner.companyId, 'user');
      const undo = await failAtCommit('company_users', `NEW.user_id = '${member.userId}'`);
      try {
        expect(
          await written(() =>
            request(t.http)
              .patch(`/api/company/members/${member.userId}`)
              .set(as(owner, owner.companyId))
              .send({ role: 'admin' })
              .expect(409),
          ),
        ).toEqual([]);
      } finally {
        await undo();
      }
      const membership = await db
        .getRepository(CompanyUserEntity)
        .findOneByOrFail({ companyId: owner.companyId, userId: member.userId });
      expect(membership.role).toBe('user');
    });

    it('a sign-in whose session cannot be stored leaves no sign-in entry', async () => {
      const account = await registerAccount(t, 'aud-rollback-signin');
      const undo = await failAtCommit('sessions', `NEW.user_id = '${account.userId}'`);
      try {
        expect(
          await written(() =>
            request(t.http)
              .post('/api/auth/login')
              .set(from(nextClientAddress()))
              .send({ email: account.email, password: account.password })
              .expect(409),
          ),
        ).toEqual([]);
      } finally {
        await undo();
      }
    });
  });

  describe('reading: GET /api/admin/audit and GET /api/company/activity', () => {
    let superadmin: Account;
    let owner: Account;
    let admin: Account;
    let member: Account;
    let other: Account;

    beforeAll(async () => {
      superadmin = await registerAccount(t, 'aud-super');
      await t.app.get(UsersService).promote(superadmin.email);
      owner = await registerAccount(t, 'aud-reader');
      admin = await joinAsNewMember(t, owner, owner.companyId, 'admin');
      member = await joinAsNewMember(t, owner, owner.companyId, 'user');
      other = await registerAccount(t, 'aud-other');
      // Some history in both companies.
      await request(t.http)
        .patch(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .send({ role: 'admin' })
        .expect(200);
      await request(t.http)
        .patch(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .send({ role: 'user' })
        .expect(200);
      await invite(t, other, other.companyId, uniqueEmail('aud-other-invitee'));
      await request(t.http)
        .post('/api/auth/login')
        .set(from(nextClientAddress()))
        .send({ email: owner.email, password: 'wrong password here' })
        .expect(401);
    });

    const adminLog = (query: Record<string, string> = {}, account = superadmin) =>
      request(t.http).get('/api/admin/audit').query(query).set(as(account, null));
    const activity = (query: Record<string, string> = {}, account = owner, companyId = owner.companyId) =>
      request(t.http).get('/api/company/activity').query(query).set(as(account, companyId));

    it('shows superadmins every entry, newest first, in the contract shape', async () => {
      const res = await adminLog({ limit: '5' }).expect(200);
      const page = res.body as AuditPage;
      expect(page.entries).toHaveLength(5);
      const ids = page.entries.map((e) => BigInt(e.id));
      expect([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(ids);
      expect(page.nextCursor).toBe(page.entries[4].id);
      const failed = page.entries.find((e) => e.action === 'auth.sign_in_failed') as AuditEntryView;
      expect(failed).toEqual({
        id: expect.any(String),
        action: 'auth.sign_in_failed',
        actor: { id: null, label: owner.email },
        target: null,
        company: null,
        ip: expect.stringMatching(/^10\./),
        details: { method: 'password' },
        createdAt: expect.any(String),
      });
      expect(new Date(failed.createdAt).toISOString()).toBe(failed.createdAt);
    });

    it('filters by action, actor (id or email prefix, any case) and company', async () => {
      const byAction = (await adminLog({ action: 'member.role_changed', limit: '200' }).expect(200))
        .body as AuditPage;
      expect(byAction.entries.length).toBeGreaterThanOrEqual(2);
      expect(new Set(byAction.entries.map((e) => e.action))).toEqual(new Set(['member.role_changed']));

      const byId = (await adminLog({ actor: owner.userId, limit: '200' }).expect(200)).body as AuditPage;
      expect(byId.entries.length).toBeGreaterThan(0);
      expect(byId.entries.every((e) => e.actor?.id === owner.userId)).toBe(true);

      const prefix = owner.email.slice(0, owner.email.indexOf('@')).toUpperCase();
      const byEmail = (await adminLog({ actor: prefix, limit: '200' }).expect(200)).body as AuditPage;
      const actions = byEmail.entries.map((e) => e.action);
      // The owner's own actions, and the failed sign-in that tried the owner's address.
      expect(actions).toEqual(expect.arrayContaining(['member.role_changed', 'auth.sign_in_failed']));
      expect(byEmail.entries.every((e) => e.actor?.label === owner.email)).toBe(true);
      // Wildcards are letters: '%' matches nobody's address.
      expect(((await adminLog({ actor: '%' }).expect(200)).body as AuditPage).entries).toEqual([]);

      const byCompany = (await adminLog({ companyId: other.companyId }).expect(200)).body as AuditPage;
      expect(byCompany.entries.map((e) => e.action)).toEqual(['invitation.created', 'company.created']);
      expect(byCompany.entries.every((e) => e.company?.id === other.companyId)).toBe(true);

      const combined = (
        await adminLog({
          action: 'member.role_changed',
          actor: admin.userId,
          companyId: owner.companyId,
        }).expect(200)
      ).body as AuditPage;
      expect(combined.entries).toEqual([]);
      // Empty filters are no filters (a form sends every field).
      expect(
        (
          (await adminLog({ action: '', actor: '', companyId: '', before: '', limit: '3' }).expect(200))
            .body as AuditPage
        ).entries,
      ).toHaveLength(3);
    });

    it('pages by cursor without gaps or repeats', async () => {
      const all = (await adminLog({ companyId: owner.companyId, limit: '200' }).expect(200))
        .body as AuditPage;
      expect(all.nextCursor).toBeNull();
      const seen: string[] = [];
      let before: string | null = null;
      do {
        const query: Record<string, string> = { companyId: owner.companyId, limit: '2' };
        if (before) query.before = before;
        const page = (await adminLog(query).expect(200)).body as AuditPage;
        expect(page.entries.length).toBeLessThanOrEqual(2);
        seen.push(...page.entries.map((e) => e.id));
        before = page.nextCursor;
      } while (before);
      expect(seen).toEqual(all.entries.map((e) => e.id));
      expect(seen.length).toBeGreaterThanOrEqual(6);
    });

    it('answers a readable 400 for a bad filter or cursor', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ action: 'auth.nope' }, 'Unknown action: choose one of the audit log actions.'],
        [{ before: 'abc' }, 'before must be an audit entry id (the nextCursor of the previous page)'],
        [
          { before: '99999999999999999999' },
          'before must be an audit entry id (the nextCursor of the previous page)',
        ],
        [{ limit: '0' }, 'limit must be between 1 and 200'],
        [{ limit: '201' }, 'limit must be between 1 and 200'],
        [{ limit: 'ten' }, 'limit must be a whole number'],
        [{ companyId: 'not-a-company' }, 'companyId must be a company id'],
        [{ actor: 'x'.repeat(321) }, 'actor must be at most 320 characters'],
        [{ sort: 'asc' }, 'Unknown field "sort".'],
      ];
      for (const [query, message] of cases) {
        const res = await adminLog(query).expect(400);
        expect(res.body.message).toBe(message);
      }
      // The same rules on a company's activity, which takes no company filter.
      expect((await activity({ before: '-1' }).expect(400)).body.message).toBe(
        'before must be an audit entry id (the nextCursor of the previous page)',
      );
      expect((await activity({ companyId: other.companyId }).expect(400)).body.message).toBe(
        'Unknown field "companyId".',
      );
    });

    it('refuses the platform log to everyone but superadmins', async () => {
      for (const account of [owner, admin, member, other]) {
        const res = await adminLog({}, account).expect(403);
        expect(res.body.message).toBe('Only platform administrators can do this.');
      }
      await request(t.http).get('/api/admin/audit').expect(401);
    });

    it("shows a company's owners and admins that company's entries only", async () => {
      for (const reader of [owner, admin]) {
        const page = (await activity({ limit: '200' }, reader).expect(200)).body as AuditPage;
        expect(page.entries.length).toBeGreaterThan(0);
        expect(page.entries.every((e) => e.company?.id === owner.companyId)).toBe(true);
        // Sign-ins (no company) and the other company's invitation are not there.
        expect(page.entries.some((e) => e.action.startsWith('auth.'))).toBe(false);
      }
      const roleChanges = (await activity({ action: 'member.role_changed' }).expect(200)).body as AuditPage;
      expect(roleChanges.entries.map((e) => [e.actor?.label, e.target?.label, e.details])).toEqual([
        [owner.email, member.email, { from: 'admin', to: 'user' }],
        [owner.email, member.email, { from: 'user', to: 'admin' }],
      ]);
      const byActor = (await activity({ actor: admin.email.toUpperCase() }).expect(200)).body as AuditPage;
      expect(byActor.entries.every((e) => e.actor?.id === admin.userId)).toBe(true);

      const otherPage = (await activity({}, other, other.companyId).expect(200)).body as AuditPage;
      expect(otherPage.entries.map((e) => e.action)).toEqual(['invitation.created', 'company.created']);

      // A plain member is refused; an outsider does not see the company at all.
      await activity({}, member).expect(403);
      expect((await activity({}, other).expect(404)).body.message).toBe('Company not found');
      expect((await activity({}, superadmin).expect(404)).body.message).toBe('Company not found');
    });
  });
});
