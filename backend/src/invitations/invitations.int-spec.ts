import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import {
  cookieFrom,
  createTestApp,
  lastMailTo,
  type TestApp,
  tokenFromMail,
  uniqueEmail,
} from '../../test/app.test-util';
import { type Account, nextClientAddress, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { invite, mailedInvitationToken, tokenOf } from '../../test/invitations.test-util';
import { useSockets } from '../../test/realtime.test-util';
import { AccountTokensService } from '../auth/account-tokens.service';
import {
  AuthService,
  GOOGLE_ACCOUNT_UNVERIFIED,
  INVALID_CREDENTIALS,
  INVALID_VERIFICATION_LINK,
} from '../auth/auth.service';
import type { InvitationView } from '../contracts/invitations';
import { CompanyUserEntity } from '../companies/company-user.entity';
import { UserEntity } from '../profiles/user.entity';
import { InvitationEntity } from './invitation.entity';
import { invitationExpiry } from './invitation-tokens';
import { ACCOUNT_EXISTS, INVALID_INVITATION } from './invitations.service';

describe('invitations (real PostgreSQL)', () => {
  let t: TestApp;
  let owner: Account;
  const openSocket = useSockets();

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    owner = await registerAccount(t, 'inv-owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  const socketOf = (account: Account) => openSocket(t.baseUrl, account.accessToken);
  const lookup = (token: string) =>
    request(t.http)
      .get('/api/invitations/lookup')
      .set('X-Forwarded-For', nextClientAddress())
      .query({ token });
  const accept = (account: Account, token: string, extra: object = {}) =>
    request(t.http)
      .post('/api/invitations/accept')
      .set(as(account, null))
      .send({ token, ...extra });
  const list = async (): Promise<InvitationView[]> =>
    (await request(t.http).get('/api/company/invitations').set(as(owner, owner.companyId)).expect(200))
      .body as InvitationView[];
  const repository = <E extends ObjectLiteral>(entity: EntityTarget<E>) =>
    t.app.get(DataSource).getRepository(entity);
  const membersOf = async (companyId: string) =>
    (await repository(CompanyUserEntity).findBy({ companyId })).map((m) => ({
      user_id: m.userId,
      role: m.role,
    }));
  const storedInvitation = (id: string) => repository(InvitationEntity).findOneBy({ id });

  it('creates an invitation, mails its link, stores only the hash, and shows it live to managers', async () => {
    const managerSocket = await socketOf(owner);
    const email = uniqueEmail('Invitee').toUpperCase();
    const before = new Date();
    const res = await request(t.http)
      .post('/api/company/invitations')
      .set(as(owner, owner.companyId))
      .send({ email, role: 'admin' })
      .expect(201);
    const after = new Date();
    const { invitation, link } = res.body as { invitation: InvitationView; link: string };
    expect(invitation).toMatchObject({
      companyId: owner.companyId,
      email: email.toLowerCase(),
      role: 'admin',
      status: 'pending',
      invitedBy: { id: owner.userId, name: 'inv-owner user' },
    });
    expect(link.startsWith(`${t.config.appOrigin}/invitation?token=`)).toBe(true);
    const token = tokenOf(link);
    // 256 random bits, base64url.
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Expiry: the end (23:59:59.999, server local time) of the 30th day from now.
    const expected = [invitationExpiry(before).toISOString(), invitationExpiry(after).toISOString()];
    expect(expected).toContain(invitation.expiresAt);
    const expiresAt = new Date(invitation.expiresAt);
    expect([
      expiresAt.getHours(),
      expiresAt.getMinutes(),
      expiresAt.getSeconds(),
      expiresAt.getMilliseconds(),
    ]).toEqual([23, 59, 59, 999]);
    const row = await storedInvitation(invitation.id);
    expect(row?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    // The mail carries the invitation's other token, the one managers never see: following it is what
    // proves the invitee reads this mailbox.
    const mailed = await mailedInvitationToken(t, email);
    expect(mailed).not.toBe(token);
    expect(Buffer.from(mailed, 'base64url')).toHaveLength(32);
    expect(lastMailTo(t, email.toLowerCase())).not.toContain(token);
    expect(row?.mailTokenHash).toBe(createHash('sha256').update(mailed).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(mailed);
    expect(JSON.stringify(res.body)).not.toContain(mailed);
    expect((await lookup(mailed).expect(200)).body.email).toBe(email.toLowerCase());
    const event = await managerSocket.waitFor<{ invitation: InvitationView }>(
      'invitation.created',
      (p) => p.invitation.id === invitation.id,
    );
    expect(event.invitation).toEqual(invitation);

    // Copy Invite Link gives the same link back.
    const copied = await request(t.http)
      .get(`/api/company/invitations/${invitation.id}/link`)
      .set(as(owner, owner.companyId))
      .expect(200);
    expect(copied.body).toEqual({ link });
    expect((await list()).map((i) => i.id)).toEqual([invitation.id]);
    expect(JSON.stringify(await list())).not.toContain(mailed);
  });

  it('answers a second pending invitation with a clear 409, and an owner role with 400', async () => {
    const email = uniqueEmail('twice');
    await invite(t, owner, owner.companyId, email);
    const again = await request(t.http)
      .post('/api/company/invitations')
      .set(as(owner, owner.companyId))
      .send({ email, role: 'user' })
      .expect(409);
    expect(again.body.message).toBe(
      'This email already has a pending invitation to this company. Resend or delete it instead.',
    );
    const owned = await request(t.http)
      .post('/api/company/invitations')
      .set(as(owner, owner.companyId))
      .send({ email: uniqueEmail(), role: 'owner' })
      .expect(400);
    expect(owned.body.message).toBe('Role must be admin or user');
  });

  it('resend issues a new link and a new expiry; the old link dies', async () => {
    const email = uniqueEmail('resend');
    const first = await invite(t, owner, owner.companyId, email);
    await lookup(first.token).expect(200);
    const firstMailed = await mailedInvitationToken(t, email);
    // As if the invitation had been sent days ago.
    await repository(InvitationEntity).update(first.id, {
      expiresAt: new Date(Date.now() + 2 * 24 * 3600_000),
    });
    const res = await request(t.http)
      .post(`/api/company/invitations/${first.id}/resend`)
      .set(as(owner, owner.companyId))
      .expect(200);
    const second = tokenOf(res.body.link as string);
    expect(second).not.toBe(first.token);
    expect(res.body.invitation.expiresAt).toBe(first.expiresAt);
    expect((await lookup(first.token).expect(404)).body.message).toBe(INVALID_INVITATION);
    expect((await lookup(second).expect(200)).body.email).toBe(email);
    const copied = await request(t.http)
      .get(`/api/company/invitations/${first.id}/link`)
      .set(as(owner, owner.companyId))
      .expect(200);
    expect(copied.body.link).toBe(res.body.link);
    const secondMailed = await mailedInvitationToken(t, email);
    expect(secondMailed).not.toBe(firstMailed);
    expect(secondMailed).not.toBe(second);
    expect(lastMailTo(t, email)).not.toContain(second);
    expect((await lookup(firstMailed).expect(404)).body.message).toBe(INVALID_INVITATION);
    expect((await lookup(secondMailed).expect(200)).body.email).toBe(email);
  });

  it('accepts for the signed-in invited address: membership and status in one step, email proved, once only', async () => {
    const invitee = await registerAccount(t, 'inv-existing');
    const managerSocket = await socketOf(owner);
    const inviteeSocket = await socketOf(invitee);
    const { id } = await invite(t, owner, owner.companyId, invitee.email.toUpperCase(), 'admin');
    // The link as mailed: following it proves the address.
    const token = await mailedInvitationToken(t, invitee.email);
    const seen = await lookup(token).expect(200);
    expect(seen.body).toMatchObject({
      companyId: owner.companyId,
      companyName: 'inv-owner company',
      email: invitee.email,
      role: 'admin',
      inviterName: 'inv-owner user',
      accountExists: true,
    });

    const res = await accept(invitee, token).expect(200);
    expect(res.body).toEqual({ companyId: owner.companyId, companyName: 'inv-owner company', role: 'admin' });
    expect(await membersOf(owner.companyId)).toContainEqual({ user_id: invitee.userId, role: 'admin' });
    const me = await request(t.http).get('/api/me').set(as(invitee, null)).expect(200);
    expect(me.body.user.emailVerified).toBe(true);
    expect(me.body.companies.map((c: { id: string; role: string }) => [c.id, c.role])).toContainEqual([
      owner.companyId,
      'admin',
    ]);
    expect((await storedInvitation(id))?.status).toBe('accepted');
    expect((await storedInvitation(id))?.tokenSealed).toBeNull();

    // Live: the managers see the invitation accepted and the member join; the new admin's open socket
    // joined the company's rooms (it receives the managers' events from now on).
    await managerSocket.waitFor<{ invitation: InvitationView }>(
      'invitation.updated',
      (p) => p.invitation.id === id && p.invitation.status === 'accepted',
    );
    await managerSocket.waitFor<{ member: { userId: string } }>(
      'member.joined',
      (p) => p.member.userId === invitee.userId,
    );
    const next = await invite(t, owner, owner.companyId, uniqueEmail('after'));
    await inviteeSocket.waitFor<{ invitation: InvitationView }>(
      'invitation.created',
      (p) => p.invitation.id === next.id,
    );

    // A second accept (or a replay of the link) changes nothing.
    expect((await accept(invitee, token).expect(404)).body.message).toBe(INVALID_INVITATION);
    expect((await lookup(token).expect(404)).body.message).toBe(INVALID_INVITATION);
    expect((await membersOf(owner.companyId)).filter((m) => m.user_id === invitee.userId)).toHaveLength(1);
    const view = (await list()).find((i) => i.id === id);
    expect(view?.status).toBe('accepted');
    await request(t.http)
      .get(`/api/company/invitations/${id}/link`)
      .set(as(owner, owner.companyId))
      .expect(409);
    await request(t.http)
      .delete(`/api/company/invitations/${id}`)
      .set(as(owner, owner.companyId))
      .expect(409);
  });

  it('takes the role from the invitation, never from the request', async () => {
    const invitee = await registerAccount(t, 'inv-tamper');
    const { id, token } = await invite(t, owner, owner.companyId, invitee.email, 'user');
    expect((await accept(invitee, token, { role: 'owner' }).expect(400)).body.message).toBe(
      'Unknown field "role".',
    );
    expect((await accept(invitee, token, { companyId: invitee.companyId }).expect(400)).body.message).toBe(
      'Unknown field "companyId".',
    );
    expect((await storedInvitation(id))?.status).toBe('pending');

    const newcomer = uniqueEmail('inv-tamper-new');
    const second = await invite(t, owner, owner.companyId, newcomer, 'user');
    await request(t.http)
      .post('/api/auth/register-invited')
      .set('X-Forwarded-For', nextClientAddress())
      .send({
        token: second.token,
        firstName: 'A',
        lastName: 'B',
        password: 'correct horse battery',
        role: 'owner',
      })
      .expect(400);
    expect((await storedInvitation(second.id))?.status).toBe('pending');
  });

  describe('invited registration', () => {
    const register = (token: string, extra: object = {}) =>
      request(t.http)
        .post('/api/auth/register-invited')
        .set('X-Forwarded-For', nextClientAddress())
        .send({ token, firstName: 'Grace', lastName: 'Hopper', password: 'correct horse battery', ...extra });

    it('creates the verified account of the invited address, in the company only, signed in like a login', async () => {
      const managerSocket = await socketOf(owner);
      const email = uniqueEmail('newcomer');
      const { id } = await invite(t, owner, owner.companyId, email, 'admin');
      const token = await mailedInvitationToken(t, email);
      expect((await lookup(token).expect(200)).body.accountExists).toBe(false);
      const res = await register(token).expect(201);
      expect(res.body).toMatchObject({
        accessToken: expect.any(String),
        expiresIn: expect.any(Number),
        user: { email, name: 'Grace Hopper', emailVerified: true },
      });
      expect(String(res.headers['set-cookie'])).toContain('sb_refresh=');
      const me = await request(t.http)
        .get('/api/me')
        .set('Authorization', `Bearer ${res.body.accessToken}`)
        .expect(200);
      expect(me.body.companies).toEqual([
        expect.objectContaining({ id: owner.companyId, name: 'inv-owner company', role: 'admin' }),
      ]);
      expect((await storedInvitation(id))?.status).toBe('accepted');
      await managerSocket.waitFor<{ member: { userId: string; name: string; role: string } }>(
        'member.joined',
        (p) =>
          p.member.userId === me.body.user.id &&
          p.member.role === 'admin' &&
          p.member.name === 'Grace Hopper',
      );
      expect((await register(token).expect(404)).body.message).toBe(INVALID_INVITATION);
    });

    describe("through a manager's copy of the link", () => {
      const signIn = (email: string, password: string) =>
        request(t.http)
          .post('/api/auth/login')
          .set('X-Forwarded-For', nextClientAddress())
          .send({ email, password });

      it('joins the company but proves nothing: unverified, and the mailed link asks the owner for the password', async () => {
        const email = uniqueEmail('ceo');
        const { id, token } = await invite(t, owner, owner.companyId, email);
        const mailed = await mailedInvitationToken(t, email);
        const res = await register(token, { password: 'attacker chosen password' }).expect(201);
        expect(res.body.user).toMatchObject({ email, emailVerified: false });
        expect((await storedInvitation(id))?.status).toBe('accepted');
        expect(await membersOf(owner.companyId)).toContainEqual({ user_id: res.body.user.id, role: 'user' });
        const stored = await repository(UserEntity).findOneByOrFail({ id: res.body.user.id as string });
        expect(stored.passwordUnproven).toBe(true);
        await t.drain();
        // No plain verification link (it would verify the attacker's password): a set-password link.
        expect(lastMailTo(t, email)).not.toContain('/verify-email');
        expect(tokenFromMail(t, email, '/reset-password')).toEqual(expect.any(String));
        // Asking for a verification mail again sends the same kind of link, never /verify-email.
        await request(t.http)
          .post('/api/auth/resend-verification')
          .set('X-Forwarded-For', nextClientAddress())
          .send({ email })
          .expect(202);
        await t.drain();
        expect(lastMailTo(t, email)).not.toContain('/verify-email');
        // Nor does the mailed invitation link verify it any more: it has been used.
        expect(
          (await accept({ accessToken: res.body.accessToken } as Account, mailed).expect(404)).body.message,
        ).toBe(INVALID_INVITATION);
      });

      it("copied link -> register -> the real owner's Google sign-in -> the attacker's password no longer opens the account", async () => {
        const email = uniqueEmail('victim');
        const { token } = await invite(t, owner, owner.companyId, email);
        const attacker = await register(token, { password: 'attacker chosen password' }).expect(201);
        const attackerSocket = await openSocket(t.baseUrl, attacker.body.accessToken as string);
        const auth = t.app.get(AuthService);
        const realOwner = {
          sub: `google-${email}`,
          email,
          emailVerified: true,
          firstName: 'Real',
          lastName: 'Owner',
        };
        // Google vouches for the address, but the account's password may be anyone's: not linked, and a
        // reset link goes to the address.
        await expect(auth.googleLogin(realOwner)).rejects.toThrow(GOOGLE_ACCOUNT_UNVERIFIED);
        await t.drain();
        const reset = tokenFromMail(t, email, '/reset-password');
        await request(t.http)
          .post('/api/auth/reset-password')
          .send({ token: reset, password: 'the real owner password' })
          .expect(200);
        // The attacker's password, session and socket are gone.
        expect((await signIn(email, 'attacker chosen password').expect(401)).body.message).toBe(
          INVALID_CREDENTIALS,
        );
        await request(t.http)
          .get('/api/me')
          .set('Authorization', `Bearer ${attacker.body.accessToken}`)
          .expect(401);
        await attackerSocket.waitFor('session.revoked');
        await request(t.http)
          .post('/api/auth/refresh')
          .set('Cookie', cookieFrom(attacker))
          .set('X-Forwarded-For', nextClientAddress())
          .expect(401);
        // The owner's Google sign-in now links into the account, verified.
        const linked = await auth.googleLogin(realOwner);
        expect(linked.user).toMatchObject({ id: attacker.body.user.id, email, emailVerified: true });
        await signIn(email, 'the real owner password').expect(200);
      });

      it('a verification link (if one was ever issued) cannot verify an account whose password is unproven', async () => {
        const email = uniqueEmail('unproven');
        const { token } = await invite(t, owner, owner.companyId, email);
        const res = await register(token).expect(201);
        const issued = await t.app
          .get(AccountTokensService)
          .issue(res.body.user.id as string, 'email_verification', email);
        expect(
          (await request(t.http).post('/api/auth/verify-email').send({ token: issued }).expect(400)).body
            .message,
        ).toBe(INVALID_VERIFICATION_LINK);
        const me = await request(t.http)
          .get('/api/me')
          .set('Authorization', `Bearer ${res.body.accessToken}`);
        expect(me.body.user.emailVerified).toBe(false);
      });

      it('accepting signed in through the copied link joins without proving the address', async () => {
        const invitee = await registerAccount(t, 'inv-copied');
        const { token } = await invite(t, owner, owner.companyId, invitee.email);
        await accept(invitee, token).expect(200);
        const me = await request(t.http).get('/api/me').set(as(invitee, null)).expect(200);
        expect(me.body.user.emailVerified).toBe(false);
      });
    });

    it('sends someone who already has an account to sign in, and creates nothing', async () => {
      const existing = await registerAccount(t, 'inv-has-account');
      const { id, token } = await invite(t, owner, owner.companyId, existing.email);
      expect((await register(token).expect(409)).body.message).toBe(ACCOUNT_EXISTS);
      expect((await storedInvitation(id))?.status).toBe('pending');
      expect((await membersOf(owner.companyId)).map((m) => m.user_id)).not.toContain(existing.userId);
    });

    it('refuses made-up, expired and missing tokens and missing fields', async () => {
      expect((await register('made-up-token').expect(404)).body.message).toBe(INVALID_INVITATION);
      const { id, token } = await invite(t, owner, owner.companyId, uniqueEmail('late-newcomer'));
      await repository(InvitationEntity).update(id, { expiresAt: new Date(Date.now() - 1000) });
      expect((await register(token).expect(404)).body.message).toBe(INVALID_INVITATION);
      const fresh = await invite(t, owner, owner.companyId, uniqueEmail('half-done'));
      expect((await register(fresh.token, { password: '' }).expect(400)).body.message).toBe(
        'Please enter a password',
      );
      expect((await register(fresh.token, { firstName: ' ' }).expect(400)).body.message).toBe(
        'Please fill in all required fields',
      );
      expect((await storedInvitation(fresh.id))?.status).toBe('pending');
    });
  });
});
