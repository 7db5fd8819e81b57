import request from 'supertest';
import {
  cookieFrom,
  createTestApp,
  registerUser,
  type RegisteredUser,
  type TestApp,
} from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newChat } from '../../test/factories';
import type { BootstrapResponse, SessionBootstrapResponse } from '../contracts/bootstrap';
import type { ChatView } from '../contracts/chats';

/**
 * GET /api/bootstrap (issue 12): the signed-in shell and the chat screen's opening data in one answer,
 * read with the same scoping as the routes it stands for.
 */
describe('GET /api/bootstrap (real PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const bootstrap = async (user: RegisteredUser, query = '') => {
    const res = await request(t.http)
      .get(`/api/bootstrap${query}`)
      .set({ Authorization: `Bearer ${user.accessToken}` })
      .expect(200);
    return res.body as BootstrapResponse;
  };
  const sendFirst = async (user: RegisteredUser, content: string, companyId = user.companyId) => {
    const res = await request(t.http)
      .post('/api/messages')
      .set(as(user, companyId))
      .send({ agentId: 'default-agent', content })
      .expect(201);
    return (res.body as { chat: ChatView }).chat;
  };

  it('answers as GET /api/me, and with the chat screen only when asked', async () => {
    const user = await registerUser(t);
    const me = await request(t.http).get('/api/me').set(as(user)).expect(200);
    const shell = await bootstrap(user);
    expect(shell).toEqual({ user: me.body.user, companies: me.body.companies, chat: null });
  });

  it("holds the agents, the Active list and the first chat's newest messages, not the Archived list", async () => {
    const user = await registerUser(t);
    const older = await sendFirst(user, 'first chat');
    const archived = await sendFirst(user, 'archived chat');
    await request(t.http)
      .patch(`/api/chats/${archived.id}`)
      .set(as(user))
      .send({ isArchived: true })
      .expect(200);
    const newest = await sendFirst(user, 'newest chat');

    const { chat } = await bootstrap(user, '?chat=true');
    const agents = await request(t.http).get('/api/agents').set(as(user)).expect(200);
    const active = await request(t.http).get('/api/chats?archived=false').set(as(user)).expect(200);
    const messages = await request(t.http)
      .get(`/api/chats/${newest.id}/messages?limit=50`)
      .set(as(user))
      .expect(200);
    expect(chat).toEqual({
      companyId: user.companyId,
      agents: agents.body,
      activeChats: active.body.chats,
      activeChatsCursor: null,
      firstChat: { chatId: newest.id, page: messages.body },
      version: expect.stringMatching(/^[0-9a-f]{32}$/),
      // MAX_ATTACHMENT_MB's default, for the message box's own check.
      maxAttachmentBytes: 20 * 1024 * 1024,
    });
    expect(chat?.activeChats.map((c) => c.id)).toEqual([newest.id, older.id]);
    expect(chat?.firstChat?.page.messages.map((m) => m.content)).toContain('newest chat');
  });

  it("versions the chat screen's data: the same while nothing changes, asked for or not, else another", async () => {
    const user = await registerUser(t);
    // A chat with no reply awaited: nothing changes it behind the test's back.
    await newChat(t.app, { userId: user.userId, companyId: user.companyId }, { messages: 1 });
    const version = async (query: string) => (await bootstrap(user, query)).chat?.version;
    const asked = await version(`?chat=true&companyId=${user.companyId}`);
    // The company picked (none asked for) is versioned after the pick: the same version.
    expect(await version('?chat=true')).toBe(asked);
    await request(t.http)
      .post('/api/chats')
      .set(as(user))
      .send({ agentId: 'default-agent', title: 'Another' })
      .expect(201);
    expect(await version(`?chat=true&companyId=${user.companyId}`)).not.toBe(asked);
  });

  it('opens the company asked for when a member, else the first one; never another user’s', async () => {
    const user = await registerUser(t);
    const second = await request(t.http)
      .post('/api/companies')
      .set({ Authorization: `Bearer ${user.accessToken}` })
      .send({ name: 'Second Company' })
      .expect(201);
    const secondId = (second.body as { id: string }).id;
    const inSecond = await sendFirst(user, 'in the second company', secondId);

    const asked = await bootstrap(user, `?chat=true&companyId=${secondId}`);
    expect(asked.chat?.companyId).toBe(secondId);
    expect(asked.chat?.activeChats.map((c) => c.id)).toEqual([inSecond.id]);

    const stranger = await registerUser(t);
    const theirs = await sendFirst(stranger, 'private');
    const fallback = await bootstrap(user, `?chat=true&companyId=${stranger.companyId}`);
    expect(fallback.chat?.companyId).toBe(fallback.companies[0].id);
    expect(fallback.companies.map((c) => c.id)).not.toContain(stranger.companyId);
    expect(JSON.stringify(fallback)).not.toContain(theirs.id);
  });

  it('has an empty chat screen for a new user (default agent, no chats)', async () => {
    const user = await registerUser(t);
    const { chat } = await bootstrap(user, '?chat=true');
    expect(chat?.agents.map((a) => a.id)).toEqual(['default-agent']);
    expect(chat?.activeChats).toEqual([]);
    expect(chat?.firstChat).toBeNull();
  });

  it('refuses bad parameters with 400 and a signed-out caller with 401', async () => {
    const user = await registerUser(t);
    const auth = { Authorization: `Bearer ${user.accessToken}` };
    const badCompany = await request(t.http).get('/api/bootstrap?companyId=nope').set(auth).expect(400);
    expect(badCompany.body.message).toBe('companyId must be a company id');
    const badChat = await request(t.http).get('/api/bootstrap?chat=maybe').set(auth).expect(400);
    expect(badChat.body.message).toBe('chat must be true or false');
    await request(t.http).get('/api/bootstrap?chat=true').expect(401);
  });

  describe('POST /api/auth/session: the refresh and the bootstrap in one round trip', () => {
    it('restores the session from the refresh cookie (rotating it) and answers as GET /api/bootstrap', async () => {
      const user = await registerUser(t);
      await sendFirst(user, 'hello from the session bootstrap');
      const res = await request(t.http)
        .post(`/api/auth/session?companyId=${user.companyId}&chat=true`)
        .set('Cookie', user.refreshCookie)
        .expect(200);
      const body = res.body as SessionBootstrapResponse;
      const rotated = cookieFrom(res);
      expect(rotated).not.toBe(user.refreshCookie);
      expect(body.expiresIn).toBeGreaterThan(0);
      expect(body.user.id).toBe(user.userId);

      // The answer is GET /api/bootstrap's, for the user the new access token names.
      const fresh = { ...user, accessToken: body.accessToken };
      expect(body.bootstrap).toEqual(await bootstrap(fresh, `?companyId=${user.companyId}&chat=true`));
      expect(body.bootstrap?.chat?.firstChat?.page.messages.map((m) => m.content)).toContain(
        'hello from the session bootstrap',
      );

      // Rotation as POST /api/auth/refresh: the new secret works, and a secret two rotations old
      // replayed here is refused (and ends the chain).
      const again = await request(t.http).post('/api/auth/refresh').set('Cookie', rotated).expect(200);
      expect(again.body.user.id).toBe(user.userId);
      await request(t.http).post('/api/auth/session').set('Cookie', user.refreshCookie).expect(401);
      await request(t.http).post('/api/auth/refresh').set('Cookie', cookieFrom(again)).expect(401);
    });

    it('answers 401 and clears the cookie without a session; 400 for bad parameters, the cookie unspent', async () => {
      const none = await request(t.http).post('/api/auth/session?chat=true').expect(401);
      expect(String(none.headers['set-cookie'])).toMatch(/sb_refresh=;/);
      await request(t.http).post('/api/auth/session').set('Cookie', 'sb_refresh=forged').expect(401);

      const user = await registerUser(t);
      const bad = await request(t.http)
        .post('/api/auth/session?chat=maybe')
        .set('Cookie', user.refreshCookie)
        .expect(400);
      expect(bad.body.message).toBe('chat must be true or false');
      await request(t.http).post('/api/auth/refresh').set('Cookie', user.refreshCookie).expect(200);
    });

    it('refuses a request from another origin, as the refresh does', async () => {
      const user = await registerUser(t);
      await request(t.http)
        .post('/api/auth/session')
        .set('Cookie', user.refreshCookie)
        .set('Origin', 'https://evil.example')
        .expect(403);
    });
  });
});
