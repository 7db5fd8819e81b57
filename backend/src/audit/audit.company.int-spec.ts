import request from 'supertest';
import { uniqueEmail } from '../../test/app.test-util';
import { newAgent } from '../../test/factories';
import { type Account, nextClientAddress, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { invite, joinAsNewMember } from '../../test/invitations.test-util';
import { useAuditApp } from '../../test/audit.test-util';

/**
 * Each audited company action (roles, members, invitations, agents, companies created), driven through
 * the API, writes exactly one entry in the transaction of its change, and none when it is refused.
 */
describe('audit log: company administration (real PostgreSQL)', () => {
  const audit = useAuditApp();
  const { written, only, from, companyName } = audit;

  describe('company administration', () => {
    let owner: Account;
    let admin: Account;
    let member: Account;
    let name: string;
    beforeEach(async () => {
      owner = await registerAccount(audit.t, 'aud-owner');
      admin = await joinAsNewMember(audit.t, owner, owner.companyId, 'admin');
      member = await joinAsNewMember(audit.t, owner, owner.companyId, 'user');
      name = await companyName(owner.companyId);
    });
    const asFrom = (account: Account, ip: string) => from(ip, as(account, owner.companyId));

    it('records a role change with the old and new role, and nothing when it is refused or changes nothing', async () => {
      const ip = nextClientAddress();
      const setRole = (caller: Account, target: Account, role: string, status: number) =>
        request(audit.t.http)
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
        request(audit.t.http)
          .delete(`/api/company/members/${target.userId}`)
          .set(asFrom(owner, ip))
          .expect(status);
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
          const res = await request(audit.t.http)
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
          request(audit.t.http)
            .post('/api/company/invitations')
            .set(asFrom(admin, ip))
            .send({ email, role: 'user' })
            .expect(409),
        ),
      ).toEqual([]);

      const resent = only(
        await written(() =>
          request(audit.t.http)
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
          request(audit.t.http)
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
          request(audit.t.http)
            .delete(`/api/company/invitations/${created?.id}`)
            .set(asFrom(owner, ip))
            .expect(404),
        ),
      ).toEqual([]);

      // Accepted by someone who has an account, signed in.
      const elsewhere = await registerAccount(audit.t, 'aud-joiner');
      const { id, token } = await invite(audit.t, owner, owner.companyId, elsewhere.email, 'user');
      const acceptIp = nextClientAddress();
      const accepted = only(
        await written(() =>
          request(audit.t.http)
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
      const second = await invite(audit.t, owner, owner.companyId, newcomer, 'admin');
      const signUpIp = nextClientAddress();
      let userId = '';
      const entries = await written(async () => {
        const res = await request(audit.t.http)
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
        audit.t.app,
        { userId: owner.userId, companyId: owner.companyId },
        { name: 'Audited agent' },
      );
      const ip = nextClientAddress();
      const entry = only(
        await written(() =>
          request(audit.t.http).delete(`/api/agents/${agent.id}`).set(asFrom(owner, ip)).expect(204),
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
          request(audit.t.http).delete('/api/agents/default-agent').set(asFrom(owner, ip)).expect(400),
        ),
      ).toEqual([]);
    });
  });

  it('records a company created, by registration and by Add Company', async () => {
    const ip = nextClientAddress();
    const email = uniqueEmail('aud-founder');
    let userId = '';
    const registered = await written(async () => {
      const res = await request(audit.t.http)
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

    const login = await request(audit.t.http)
      .post('/api/auth/login')
      .set(from(ip))
      .send({ email, password: 'correct horse battery' })
      .expect(200);
    let companyId = '';
    const entry = only(
      await written(async () => {
        const res = await request(audit.t.http)
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
});
