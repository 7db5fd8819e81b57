import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import type { BootstrapResponse } from '../contracts/bootstrap';
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

  const as = (user: RegisteredUser, companyId = user.companyId) => ({
    Authorization: `Bearer ${user.accessToken}`,
    'X-Company-Id': companyId,
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
    });
    expect(chat?.activeChats.map((c) => c.id)).toEqual([newest.id, older.id]);
    expect(chat?.firstChat?.page.messages.map((m) => m.content)).toContain('newest chat');
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
});
