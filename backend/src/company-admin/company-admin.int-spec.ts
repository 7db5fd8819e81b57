import request from 'supertest';
import { createTestApp, type TestApp } from '../../test/app.test-util';
import { newMembership, newUser } from '../../test/factories';
import { type Account, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { forgedKeysetCursors } from '../../test/cursors';
import { invite, joinAsNewMember } from '../../test/invitations.test-util';
import { type EventLog, useSockets, companyRoomsOf } from '../../test/realtime.test-util';
import type { CompanyAgentView, MemberPage, MemberView } from '../contracts/company-admin';
import {
  INVALID_MEMBER_CURSOR,
  LAST_OWNER,
  ONLY_OWNER_MAKES_OWNERS,
  ONLY_OWNER_REMOVES_OWNERS,
} from './members.service';

describe('company administration (real PostgreSQL)', () => {
  let t: TestApp;
  let owner: Account;
  let admin: Account;
  let member: Account;
  const openSocket = useSockets();

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    owner = await registerAccount(t, 'adm-owner');
    admin = await joinAsNewMember(t, owner, owner.companyId, 'admin', {
      firstName: 'Ada',
      lastName: 'Admin',
    });
    member = await joinAsNewMember(t, owner, owner.companyId, 'user', { firstName: 'Uma', lastName: 'User' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const socketOf = (account: Account) => openSocket(t.baseUrl, account.accessToken);
  const setRole = (caller: Account, target: Account, role: string) =>
    request(t.http)
      .patch(`/api/company/members/${target.userId}`)
      .set(as(caller, owner.companyId))
      .send({ role });
  const remove = (caller: Account, target: Account) =>
    request(t.http).delete(`/api/company/members/${target.userId}`).set(as(caller, owner.companyId));
  const roles = async (caller = owner) => {
    const res = await request(t.http)
      .get('/api/company/members')
      .set(as(caller, owner.companyId))
      .expect(200);
    return Object.fromEntries((res.body as MemberPage).members.map((m) => [m.userId, m.role]));
  };
  const roomsOf = (log: EventLog): string[] => companyRoomsOf(t.app, log);
  const settle = () => new Promise((r) => setTimeout(r, 100));

  it('lists members with names, emails, avatars and roles, for managers only', async () => {
    const nameless = await newUser(t.app, { firstName: '', lastName: '' });
    await newMembership(t.app, owner, nameless);
    const res = await request(t.http).get('/api/company/members').set(as(admin, owner.companyId)).expect(200);
    const { members, nextCursor } = res.body as MemberPage;
    expect(nextCursor).toBeNull();
    expect(members.map((m) => [m.name, m.email, m.role])).toEqual([
      ['adm-owner user', owner.email, 'owner'],
      ['Ada Admin', admin.email, 'admin'],
      ['Uma User', member.email, 'user'],
      ['Unnamed User', nameless.email, 'user'],
    ]);
    expect(members[0]).toEqual({
      userId: owner.userId,
      name: 'adm-owner user',
      email: owner.email,
      avatar: '/placeholder.svg',
      role: 'owner',
      joinedAt: expect.any(String),
    });
    const refused = await request(t.http)
      .get('/api/company/members')
      .set(as(member, owner.companyId))
      .expect(403);
    expect(refused.body.message).toBe("You don't have permission to perform this action.");
    const stranger = await registerAccount(t, 'adm-stranger');
    expect(
      (await request(t.http).get('/api/company/members').set(as(stranger, owner.companyId)).expect(404)).body
        .message,
    ).toBe('Company not found');
  });

  // The role rules themselves are tested on MembersService (members.service.int-spec.ts); here, how
  // each refusal answers over HTTP.
  it('answers refused role changes with 403 or 409, unknown members and outsiders with 404, bad roles with 400', async () => {
    expect((await setRole(admin, member, 'owner').expect(403)).body.message).toBe(ONLY_OWNER_MAKES_OWNERS);
    expect((await remove(admin, owner).expect(403)).body.message).toBe(ONLY_OWNER_REMOVES_OWNERS);
    await setRole(member, admin, 'user').expect(403);
    await remove(member, admin).expect(403);
    expect((await setRole(owner, owner, 'admin').expect(409)).body.message).toBe(LAST_OWNER);
    expect((await remove(owner, owner).expect(409)).body.message).toBe(LAST_OWNER);
    const stranger = await registerAccount(t, 'adm-outsider');
    await setRole(owner, stranger, 'admin').expect(404);
    await remove(owner, stranger).expect(404);
    expect((await setRole(owner, member, 'superadmin').expect(400)).body.message).toBe(
      'Role must be owner, admin or user',
    );
    await request(t.http)
      .patch(`/api/company/members/${member.userId}`)
      .set(as(stranger, stranger.companyId))
      .send({ role: 'admin' })
      .expect(404);
    expect(await roles()).toMatchObject({
      [owner.userId]: 'owner',
      [admin.userId]: 'admin',
      [member.userId]: 'user',
    });
    await remove(admin, member).expect(204);
    expect((await roles())[member.userId]).toBeUndefined();
  });

  it('answers a tampered cursor or a bad limit or search of the member list with a readable 400', async () => {
    for (let i = 0; i < 3; i++) await newMembership(t.app, owner, await newUser(t.app));
    const list = (query: string) =>
      request(t.http).get(`/api/company/members${query}`).set(as(owner, owner.companyId));
    const { nextCursor } = (await list('?limit=2').expect(200)).body as MemberPage;
    for (const cursor of forgedKeysetCursors(nextCursor ?? '')) {
      const res = await list(`?cursor=${encodeURIComponent(cursor)}`).expect(400);
      expect(res.body.message).toBe(INVALID_MEMBER_CURSOR);
    }
    for (const query of [
      'limit=0',
      'limit=201',
      'limit=x',
      `search=${'a'.repeat(201)}`,
      'cursor=a&cursor=b',
    ]) {
      const res = await list(`?${query}`).expect(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    // A search of spaces is no search, and the largest page is allowed.
    expect(((await list('?search=%20%20&limit=200').expect(200)).body as MemberPage).members).toHaveLength(6);
  });

  it("moves a member's open sockets with their role, and tells them and the managers live", async () => {
    const ownerSocket = await socketOf(owner);
    const memberSocket = await socketOf(member);
    const company = `company:${owner.companyId}`;
    expect(roomsOf(memberSocket)).toEqual([company]);

    await setRole(owner, member, 'admin').expect(200);
    const updated = await memberSocket.waitFor<{ member: MemberView }>(
      'member.updated',
      (p) => p.member.userId === member.userId && p.member.role === 'admin',
    );
    expect(updated).toEqual({
      companyId: owner.companyId,
      member: expect.objectContaining({ role: 'admin' }),
    });
    await ownerSocket.waitFor<{ member: MemberView }>('member.updated', (p) => p.member.role === 'admin');
    await settle();
    expect(roomsOf(memberSocket)).toEqual([company, `${company}:managers`]);
    // One event per socket, even though the new admin is in both rooms it went to.
    expect(memberSocket.events.filter((e) => e.event === 'member.updated')).toHaveLength(1);
    const first = await invite(t, owner, owner.companyId, `live-${Date.now()}@example.com`);
    await memberSocket.waitFor<{ invitation: { id: string } }>(
      'invitation.created',
      (p) => p.invitation.id === first.id,
    );

    await setRole(owner, member, 'user').expect(200);
    await memberSocket.waitFor<{ member: MemberView }>('member.updated', (p) => p.member.role === 'user');
    await settle();
    expect(roomsOf(memberSocket)).toEqual([company]);
    const second = await invite(t, owner, owner.companyId, `live2-${Date.now()}@example.com`);
    await ownerSocket.waitFor<{ invitation: { id: string } }>(
      'invitation.created',
      (p) => p.invitation.id === second.id,
    );
    await settle();
    expect(
      memberSocket.events.filter(
        (e) =>
          e.event === 'invitation.created' &&
          (e.payload as { invitation: { id: string } }).invitation.id === second.id,
      ),
    ).toEqual([]);
  });

  it("removes a member at once: their sockets leave the company's rooms, they are told, their access ends", async () => {
    const removed = await joinAsNewMember(t, owner, owner.companyId, 'admin');
    const adminSocket = await socketOf(admin);
    const removedSocket = await socketOf(removed);
    expect(roomsOf(removedSocket)).toEqual([
      `company:${owner.companyId}`,
      `company:${owner.companyId}:managers`,
    ]);

    await remove(owner, removed).expect(204);
    expect(await removedSocket.waitFor('member.removed')).toEqual({
      companyId: owner.companyId,
      userId: removed.userId,
    });
    await adminSocket.waitFor<{ userId: string }>('member.removed', (p) => p.userId === removed.userId);
    await settle();
    expect(roomsOf(removedSocket)).toEqual([]);
    expect(removedSocket.socket.connected).toBe(true); // still signed in, just not in this company

    await request(t.http)
      .patch('/api/company')
      .set(as(owner, owner.companyId))
      .send({ name: 'After the removal' })
      .expect(200);
    await adminSocket.waitFor<{ name: string }>('company.updated', (p) => p.name === 'After the removal');
    await invite(t, owner, owner.companyId, `gone-${Date.now()}@example.com`);
    await settle();
    expect(removedSocket.events.map((e) => e.event)).toEqual(['member.removed']);
    expect(
      (await request(t.http).get('/api/chats').set(as(removed, owner.companyId)).expect(404)).body.message,
    ).toBe('Company not found');
  });

  it('renames the company live for every member, and shows its details to managers', async () => {
    const memberSocket = await socketOf(member);
    const renamed = await request(t.http)
      .patch('/api/company')
      .set(as(admin, owner.companyId))
      .send({ name: '  Renamed Co  ' })
      .expect(200);
    expect(renamed.body).toEqual({
      id: owner.companyId,
      name: 'Renamed Co',
      createdAt: expect.any(String),
      owner: { id: owner.userId, name: 'adm-owner user' },
      memberCount: 3,
      agentCount: 0,
      // No limits unless a platform admin sets them; nothing stored and no message sent yet, and the
      // viewer (a manager of the company) is told their own use of today.
      quotas: {
        storedBytesLimit: null,
        storedBytesUsed: 0,
        messagesPerUserPerDay: null,
        messagesPerCompanyPerMonth: null,
        messagesThisMonth: 0,
        yourMessagesToday: 0,
      },
    });
    expect(await memberSocket.waitFor('company.updated')).toEqual({
      companyId: owner.companyId,
      name: 'Renamed Co',
    });
    const mine = await request(t.http)
      .get(`/api/companies/${owner.companyId}`)
      .set(as(member, null))
      .expect(200);
    expect(mine.body.name).toBe('Renamed Co');
    expect(
      (
        await request(t.http)
          .patch('/api/company')
          .set(as(admin, owner.companyId))
          .send({ name: ' ' })
          .expect(400)
      ).body.message,
    ).toBe('Company name is required');
    await request(t.http)
      .patch('/api/company')
      .set(as(member, owner.companyId))
      .send({ name: 'Mine now' })
      .expect(403);
    await request(t.http).get('/api/company/details').set(as(member, owner.companyId)).expect(403);
    const details = await request(t.http)
      .get('/api/company/details')
      .set(as(owner, owner.companyId))
      .expect(200);
    expect(details.body.name).toBe('Renamed Co');
  });

  it('lists, creates and switches company agents', async () => {
    const ownerSocket = await socketOf(owner);
    await request(t.http)
      .post('/api/company/agents')
      .set(as(owner, owner.companyId))
      .send({ name: 'Helpdesk', description: 'Answers questions' })
      .expect(201);
    const second = await request(t.http)
      .post('/api/company/agents')
      .set(as(admin, owner.companyId))
      .send({ name: 'Sales', description: 'Finds leads' })
      .expect(201);
    expect(second.body).toMatchObject({
      companyId: owner.companyId,
      name: 'Sales',
      description: 'Finds leads',
      avatar: '/placeholder.svg',
      isActive: true,
      isDefault: false,
      owner: { id: admin.userId, name: 'Ada Admin' },
    });
    const listed = await request(t.http)
      .get('/api/company/agents')
      .set(as(admin, owner.companyId))
      .expect(200);
    expect((listed.body as CompanyAgentView[]).map((a) => a.name)).toEqual(['Sales', 'Helpdesk']);
    // A real agent of its creator: it is in their own agent list and answers through the default webhook.
    const adminsAgents = await request(t.http).get('/api/agents').set(as(admin, owner.companyId)).expect(200);
    expect(adminsAgents.body.map((a: { name: string }) => a.name)).toContain('Sales');

    const helpdesk = (listed.body as CompanyAgentView[])[1];
    const off = await request(t.http)
      .patch(`/api/company/agents/${helpdesk.id}`)
      .set(as(admin, owner.companyId))
      .send({ isActive: false })
      .expect(200);
    expect(off.body).toMatchObject({ id: helpdesk.id, isActive: false });
    await ownerSocket.waitFor<{ agent: { id: string; isActive: boolean } }>(
      'agent.updated',
      (p) => p.agent.id === helpdesk.id && !p.agent.isActive,
    );
    // Every agent of the company counts, including each member's default agent (made on first use).
    const all = await request(t.http).get('/api/company/agents').set(as(owner, owner.companyId)).expect(200);
    expect((all.body as CompanyAgentView[]).map((a) => [a.name, a.isDefault, a.isActive])).toEqual([
      ['Assistant', true, true],
      ['Sales', false, true],
      ['Helpdesk', false, false],
    ]);
    const details = await request(t.http)
      .get('/api/company/details')
      .set(as(owner, owner.companyId))
      .expect(200);
    expect(details.body.agentCount).toBe(3);

    await request(t.http)
      .post('/api/company/agents')
      .set(as(member, owner.companyId))
      .send({ name: 'Mine', description: 'x' })
      .expect(403);
    expect(
      (
        await request(t.http)
          .post('/api/company/agents')
          .set(as(owner, owner.companyId))
          .send({ name: 'No description' })
          .expect(400)
      ).body.message,
    ).toBe('Description is required');
    const stranger = await registerAccount(t, 'adm-agents-outsider');
    await request(t.http)
      .patch(`/api/company/agents/${helpdesk.id}`)
      .set(as(stranger, stranger.companyId))
      .send({ isActive: true })
      .expect(404);
  });
});
