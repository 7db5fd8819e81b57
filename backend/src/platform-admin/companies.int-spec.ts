import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, type TestApp, uniqueEmail } from '../../test/app.test-util';
import { newAgent, newChat } from '../../test/factories';
import { type Account, registerAccount, TINY_PNG } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { setSuperadmin } from '../../test/factories';
import { invite, joinAsNewMember } from '../../test/invitations.test-util';
import { companyRoomsOf as serverRoomsOf, type EventLog, useSockets } from '../../test/realtime.test-util';
import type {
  PlatformAgentPage,
  PlatformCompanyDetails,
  PlatformCompanyMemberView,
  PlatformCompanyPage,
} from '../contracts/platform-admin';
import { COMPANY_NOT_FOUND, NO_USER_WITH_EMAIL } from './companies.service';
import { SUPERADMIN_REQUIRED } from './superadmin.guard';

/** What a company owns, counted row by row. */
interface Holdings {
  company: number;
  memberships: number;
  agents: number;
  avatarFiles: number;
  chats: number;
  messages: number;
  invitations: number;
}

describe('platform admin: companies and agents (real PostgreSQL)', () => {
  let t: TestApp;
  let admin: Account;
  const openSocket = useSockets();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerAccount(t, 'platform-admin');
    // Test-only shortcut: the installation's first account may be another suite's.
    await setSuperadmin(t.app, admin.userId);
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.app.get(DataSource);
  const auditCount = async (action: string, targetId: string): Promise<number> => {
    const rows: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM audit_log WHERE action = $1 AND target_id = $2',
      [action, targetId],
    );
    return Number(rows[0].n);
  };
  /** `owned`: the ids of the company's agents and of their avatar files, read before anything is deleted. */
  const holdings = async (
    companyId: string,
    owned: { agentIds: string[]; fileIds: string[] },
  ): Promise<Holdings> => {
    const [row]: Array<Record<keyof Holdings, string>> = await db().query(
      `SELECT (SELECT count(*) FROM companies WHERE id = $1) AS company,
         (SELECT count(*) FROM company_users WHERE company_id = $1) AS memberships,
         (SELECT count(*) FROM agents WHERE id = ANY($2::uuid[])) AS agents,
         (SELECT count(*) FROM files WHERE id = ANY($3::uuid[])) AS "avatarFiles",
         (SELECT count(*) FROM chats WHERE company_id = $1) AS chats,
         (SELECT count(*) FROM messages m JOIN chats c ON c.id = m.chat_id WHERE c.company_id = $1) AS messages,
         (SELECT count(*) FROM company_invitations WHERE company_id = $1) AS invitations`,
      [companyId, owned.agentIds, owned.fileIds],
    );
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as Holdings;
  };
  const socketOf = (account: Account) => openSocket(t.baseUrl, account.accessToken);
  const companyRoomsOf = (log: EventLog): string[] => serverRoomsOf(t.app, log);

  /** A company with two members besides its owner, an agent with an avatar, chats with messages, an invitation. */
  const populated = async (prefix: string) => {
    const owner = await registerAccount(t, prefix);
    const companyId = owner.companyId;
    const adminMember = await joinAsNewMember(t, owner, companyId, 'admin');
    const plainMember = await joinAsNewMember(t, owner, companyId, 'user');
    const agent = await newAgent(
      t.app,
      { userId: owner.userId, companyId },
      { signingSecret: 'whsec_c2VjcmV0' },
    );
    await request(t.http)
      .post(`/api/agents/${agent.id}/avatar`)
      .set(as(owner, companyId))
      .attach('file', TINY_PNG, 'a.png')
      .expect(201);
    await newChat(t.app, { userId: owner.userId, companyId }, { agent, messages: 3 });
    await newChat(t.app, { userId: plainMember.userId, companyId }, { messages: 2 });
    await invite(t, owner, companyId, uniqueEmail('pending'));
    const agents: Array<{ id: string; avatar_file_id: string | null }> = await db().query(
      'SELECT id, avatar_file_id FROM agents WHERE company_id = $1',
      [companyId],
    );
    const owned = {
      agentIds: agents.map((a) => a.id),
      fileIds: agents.flatMap((a) => (a.avatar_file_id ? [a.avatar_file_id] : [])),
    };
    return { owner, companyId, adminMember, plainMember, owned };
  };

  it('refuses company and agent routes to anyone but a superadmin', async () => {
    const owner = await registerAccount(t, 'co-plain');
    for (const [method, path] of [
      ['get', '/api/admin/companies'],
      ['post', '/api/admin/companies'],
      ['get', `/api/admin/companies/${owner.companyId}`],
      ['get', `/api/admin/companies/${owner.companyId}/members`],
      ['delete', `/api/admin/companies/${owner.companyId}`],
      ['get', '/api/admin/agents'],
    ] as const) {
      const res = await request(t.http)[method](path).set(as(owner, owner.companyId));
      expect([path, res.status, res.body.message]).toEqual([path, 403, SUPERADMIN_REQUIRED]);
    }
    const [row]: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM companies WHERE id = $1',
      [owner.companyId],
    );
    expect(Number(row.n)).toBe(1);
  });

  it('creates a company owned by an existing account, audited once; refuses an unknown owner', async () => {
    const owner = await registerAccount(t, 'co-new-owner');
    const name = `Made by admin ${Date.now()}`;
    const res = await request(t.http)
      .post('/api/admin/companies')
      .set(as(admin, null))
      .send({ name: `  ${name} `, ownerEmail: owner.email.toUpperCase() })
      .expect(201);
    const created = res.body as PlatformCompanyDetails;
    expect(created).toMatchObject({
      name,
      userCount: 1,
      memberCount: 1,
      agentCount: 0,
      chatCount: 0,
      owner: { id: owner.userId, email: owner.email },
    });
    const mine = await request(t.http).get('/api/companies').set(as(owner, null)).expect(200);
    expect((mine.body as Array<{ id: string; role: string }>).find((c) => c.id === created.id)?.role).toBe(
      'owner',
    );
    expect(await auditCount('company.created', created.id)).toBe(1);

    const before: Array<{ n: string }> = await db().query(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'company.created'",
    );
    const unknown = await request(t.http)
      .post('/api/admin/companies')
      .set(as(admin, null))
      .send({ name: 'Nobody owns this', ownerEmail: uniqueEmail('nobody') });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(NO_USER_WITH_EMAIL);
    const blank = await request(t.http)
      .post('/api/admin/companies')
      .set(as(admin, null))
      .send({ name: '  ', ownerEmail: owner.email });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Company name is required');
    const after: Array<{ n: string }> = await db().query(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'company.created'",
    );
    expect(after[0].n).toBe(before[0].n);
  });

  it('lists companies newest first with their user counts, searches and pages', async () => {
    const tag = `Paged${Date.now()}`;
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const owner = await registerAccount(t, `co-list-${i}`);
      const res = await request(t.http)
        .post('/api/admin/companies')
        .set(as(admin, null))
        .send({ name: `${tag} ${i}`, ownerEmail: owner.email })
        .expect(201);
      made.push(res.body.id as string);
    }
    const seen: PlatformCompanyPage['companies'] = [];
    let cursor: string | null | undefined;
    do {
      const res = await request(t.http)
        .get('/api/admin/companies')
        .query({ search: tag.toLowerCase(), limit: '2', ...(cursor ? { cursor } : {}) })
        .set(as(admin, null))
        .expect(200);
      const page = res.body as PlatformCompanyPage;
      seen.push(...page.companies);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((c) => c.id)).toEqual([...made].reverse());
    expect(seen[0]).toEqual({
      id: made[2],
      name: `${tag} 2`,
      userCount: 1,
      usesSso: false,
      createdAt: expect.any(String),
    });
    const bad = await request(t.http)
      .get('/api/admin/companies')
      .query({ cursor: 'bm9wZQ' })
      .set(as(admin, null));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid cursor');
  });

  it('shows a company: details with counts, and its members with their roles', async () => {
    const { owner, companyId, adminMember, plainMember } = await populated('co-details');
    const details = await request(t.http)
      .get(`/api/admin/companies/${companyId}`)
      .set(as(admin, null))
      .expect(200);
    expect(details.body).toMatchObject({
      id: companyId,
      userCount: 3,
      memberCount: 3,
      chatCount: 2,
      owner: { id: owner.userId, email: owner.email, name: 'co-details user' },
    });
    // The owner's custom agent, and the default agents made for the chats.
    expect((details.body as PlatformCompanyDetails).agentCount).toBeGreaterThanOrEqual(2);
    const members = await request(t.http)
      .get(`/api/admin/companies/${companyId}/members`)
      .set(as(admin, null))
      .expect(200);
    expect((members.body as PlatformCompanyMemberView[]).map((m) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
      [adminMember.userId, 'admin'],
      [plainMember.userId, 'user'],
    ]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await request(t.http).get(`/api/admin/companies/${unknown}`).set(as(admin, null));
    expect([missing.status, missing.body.message]).toEqual([404, COMPANY_NOT_FOUND]);
    await request(t.http).get(`/api/admin/companies/${unknown}/members`).set(as(admin, null)).expect(404);
    await request(t.http).get('/api/admin/companies/not-a-uuid').set(as(admin, null)).expect(404);
  });

  it('lists every agent read-only: company, owner, webhook host only, voice id; filters by company', async () => {
    const { owner, companyId } = await populated('co-agents');
    const other = await registerAccount(t, 'co-agents-other');
    await newAgent(
      t.app,
      { userId: other.userId, companyId: other.companyId },
      {
        name: 'Voiced',
        webhook: 'https://hooks.example.org:8443/path/key?token=abc',
        elevenlabsAgentId: 'voice-1',
      },
    );
    const res = await request(t.http)
      .get('/api/admin/agents')
      .query({ companyId })
      .set(as(admin, null))
      .expect(200);
    const page = res.body as PlatformAgentPage;
    expect(page.agents.every((a) => a.company.id === companyId)).toBe(true);
    const custom = page.agents.find((a) => a.name === 'Test agent');
    expect(custom).toMatchObject({
      company: { id: companyId, name: 'co-agents company' },
      owner: { id: owner.userId, email: owner.email },
      webhookHost: 'example.com',
      voiceId: null,
      isActive: true,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/whsec_|\/hook/);

    const theirs = await request(t.http)
      .get('/api/admin/agents')
      .query({ companyId: other.companyId })
      .set(as(admin, null))
      .expect(200);
    const voiced = (theirs.body as PlatformAgentPage).agents.find((a) => a.name === 'Voiced');
    expect(voiced).toMatchObject({ webhookHost: 'hooks.example.org:8443', voiceId: 'voice-1' });
    expect(JSON.stringify(theirs.body)).not.toMatch(/token=abc|\/path/);

    // Paging over every company: no agent twice, newest first.
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next = await request(t.http)
        .get('/api/admin/agents')
        .query({ limit: '3', ...(cursor ? { cursor } : {}) })
        .set(as(admin, null))
        .expect(200);
      const body = next.body as PlatformAgentPage;
      ids.push(...body.agents.map((a) => a.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 3);
    expect(new Set(ids).size).toBe(ids.length);
    const bad = await request(t.http)
      .get('/api/admin/agents')
      .query({ companyId: 'nope' })
      .set(as(admin, null));
    expect([bad.status, bad.body.message]).toEqual([400, 'companyId must be a company id']);
  });

  it('deletes a company with everything it owns and nothing else; its members switch away live', async () => {
    const doomed = await populated('co-doomed');
    const kept = await populated('co-kept');
    // The doomed company's admin also belongs to the kept company: their page switches to it.
    const both = doomed.adminMember;
    await request(t.http).post('/api/companies').set(as(both, null)).send({ name: 'Their own' }).expect(201);
    const doomedBefore = await holdings(doomed.companyId, doomed.owned);
    expect(doomedBefore).toMatchObject({
      company: 1,
      memberships: 3,
      agents: doomed.owned.agentIds.length,
      avatarFiles: 1,
    });
    expect(doomedBefore.chats).toBe(2);
    expect(doomedBefore.messages).toBe(5);
    expect(doomedBefore.invitations).toBeGreaterThanOrEqual(3);
    const keptBefore = await holdings(kept.companyId, kept.owned);
    const [{ n: profilesBefore }]: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM profiles',
    );

    const memberSocket = await socketOf(both);
    const ownerSocket = await socketOf(doomed.owner);
    const outsiderSocket = await socketOf(kept.owner);
    expect(companyRoomsOf(memberSocket)).toContain(`company:${doomed.companyId}`);

    // Refused to a non-superadmin (even the company's owner): nothing goes.
    await request(t.http)
      .delete(`/api/admin/companies/${doomed.companyId}`)
      .set(as(doomed.owner, doomed.companyId))
      .expect(403);
    expect(await holdings(doomed.companyId, doomed.owned)).toEqual(doomedBefore);

    await request(t.http).delete(`/api/admin/companies/${doomed.companyId}`).set(as(admin, null)).expect(204);

    expect(await holdings(doomed.companyId, doomed.owned)).toEqual({
      company: 0,
      memberships: 0,
      agents: 0,
      avatarFiles: 0,
      chats: 0,
      messages: 0,
      invitations: 0,
    });
    const [{ n: orphans }]: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM messages m LEFT JOIN chats c ON c.id = m.chat_id WHERE c.id IS NULL',
    );
    expect(Number(orphans)).toBe(0);
    // Nothing else: the other company, and every account (the members keep their accounts and sessions).
    expect(await holdings(kept.companyId, kept.owned)).toEqual(keptBefore);
    const [{ n: profilesAfter }]: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM profiles',
    );
    expect(profilesAfter).toBe(profilesBefore);
    await request(t.http).get('/api/me').set(as(doomed.owner, null)).expect(200);
    await request(t.http).get('/api/agents').set(as(both, doomed.companyId)).expect(404);

    expect(await memberSocket.waitFor('company.deleted')).toEqual({ companyId: doomed.companyId });
    expect(await ownerSocket.waitFor('company.deleted')).toEqual({ companyId: doomed.companyId });
    expect(companyRoomsOf(memberSocket).some((r) => r.includes(doomed.companyId))).toBe(false);
    expect(companyRoomsOf(ownerSocket)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(outsiderSocket.events.some((e) => e.event === 'company.deleted')).toBe(false);

    expect(await auditCount('company.deleted', doomed.companyId)).toBe(1);
    const [entry]: Array<{ details: Record<string, number>; company_name: string }> = await db().query(
      "SELECT details, company_name FROM audit_log WHERE action = 'company.deleted' AND target_id = $1",
      [doomed.companyId],
    );
    expect(entry.company_name).toBe('co-doomed company');
    expect(entry.details).toMatchObject({ members: 3, chats: 2, messages: 5, files: 0, fileBytes: 0 });

    // Again: 404, and no second entry.
    const again = await request(t.http)
      .delete(`/api/admin/companies/${doomed.companyId}`)
      .set(as(admin, null));
    expect([again.status, again.body.message]).toEqual([404, COMPANY_NOT_FOUND]);
    expect(await auditCount('company.deleted', doomed.companyId)).toBe(1);
  });
});
