import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { useSockets } from '../../test/realtime.test-util';
import type { ChatPage } from '../contracts/chats';
import { ChatEntity } from './chat.entity';
import type { ChatView } from '../realtime/client-events';

/**
 * New Chat: every click saved another empty 'Chat with {agent}' and they piled up as 'No
 * messages yet' rows. A chat of the user with that agent that never got a message is given back (moved
 * to the top) instead; anything else about chats stays as it was.
 */
describe('New Chat reuses the empty chat (real PostgreSQL)', () => {
  let t: TestApp;
  const openSocket = useSockets();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const newChat = async (user: RegisteredUser, body: { agentId: string; title?: string }) => {
    const res = await request(t.http).post('/api/chats').set(as(user)).send(body).expect(201);
    return res.body as ChatView;
  };
  const activeChats = async (user: RegisteredUser) => {
    const res = await request(t.http).get('/api/chats?archived=false').set(as(user)).expect(200);
    return (res.body as ChatPage).chats;
  };
  const send = (user: RegisteredUser, chatId: string, content: string) =>
    request(t.http).post(`/api/chats/${chatId}/messages`).set(as(user)).send({ content }).expect(201);
  const addAgent = async (user: RegisteredUser, name: string) => {
    const res = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name, webhook: 'https://example.com/hook' })
      .expect(201);
    return res.body as { id: string };
  };

  it('gives back the same empty chat on every click, moved to the top, with the spec title', async () => {
    const user = await registerUser(t);
    const tab = await openSocket(t.baseUrl, user.accessToken);
    const first = await newChat(user, { agentId: 'default-agent' });
    expect(first.title).toBe('Chat with Assistant');
    await tab.waitFor('chat.created', (p: { chat: ChatView }) => p.chat.id === first.id);

    const again = await newChat(user, { agentId: 'default-agent' });
    const third = await newChat(user, { agentId: 'default-agent' });
    expect(again.id).toBe(first.id);
    expect(third.id).toBe(first.id);
    expect(third.title).toBe('Chat with Assistant');
    expect(third.agentId).toBe('default-agent');
    expect(third.lastMessage).toBeNull();
    expect(Date.parse(third.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));
    // The user's other tabs hear of it as an update (it moved up), not as another chat.
    await tab.waitFor('chat.updated', (p: { chat: ChatView }) => p.chat.id === first.id);
    expect((await activeChats(user)).map((c) => c.id)).toEqual([first.id]);
  });

  it('starts a new chat once the empty one got a message, and keeps one empty chat per agent', async () => {
    const user = await registerUser(t);
    const other = await addAgent(user, 'Researcher');
    const empty = await newChat(user, { agentId: 'default-agent' });
    await send(user, empty.id, 'hello');

    const fresh = await newChat(user, { agentId: 'default-agent' });
    expect(fresh.id).not.toBe(empty.id);
    const forOther = await newChat(user, { agentId: other.id });
    expect(forOther.id).not.toBe(fresh.id);
    expect(forOther.title).toBe('Chat with Researcher');
    expect((await newChat(user, { agentId: other.id })).id).toBe(forOther.id);
    expect((await newChat(user, { agentId: 'default-agent' })).id).toBe(fresh.id);

    const titles = (await activeChats(user)).map((c) => c.id).sort();
    expect(titles).toEqual([empty.id, fresh.id, forOther.id].sort());
  });

  it('does not reuse an archived chat, a chat asked for by title, nor another user or company', async () => {
    const user = await registerUser(t);
    const archived = await newChat(user, { agentId: 'default-agent' });
    await request(t.http)
      .patch(`/api/chats/${archived.id}`)
      .set(as(user))
      .send({ isArchived: true })
      .expect(200);
    const fresh = await newChat(user, { agentId: 'default-agent' });
    expect(fresh.id).not.toBe(archived.id);

    const named = await newChat(user, { agentId: 'default-agent', title: 'Planning' });
    expect(named.id).not.toBe(fresh.id);
    expect(named.title).toBe('Planning');
    // A titled chat is a chat the user asked for: New Chat still gives back the untitled empty one
    // (the newest empty chat, whichever its title).
    expect([named.id, fresh.id]).toContain((await newChat(user, { agentId: 'default-agent' })).id);

    const someoneElse = await registerUser(t);
    const theirs = await newChat(someoneElse, { agentId: 'default-agent' });
    expect([archived.id, fresh.id, named.id]).not.toContain(theirs.id);
  });

  it('makes one chat when New Chat is clicked several times at once', async () => {
    const user = await registerUser(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        request(t.http).post('/api/chats').set(as(user)).send({ agentId: 'default-agent' }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((r) => (r.body as ChatView).id)).size).toBe(1);
    expect(await t.app.get(DataSource).getRepository(ChatEntity).countBy({ userId: user.userId })).toBe(1);
  });

  it('refuses an unknown agent with 404 and a bad body with 400, saving nothing', async () => {
    const user = await registerUser(t);
    await request(t.http)
      .post('/api/chats')
      .set(as(user))
      .send({ agentId: '00000000-0000-4000-8000-000000000000' })
      .expect(404);
    await request(t.http).post('/api/chats').set(as(user)).send({}).expect(400);
    expect(await activeChats(user)).toEqual([]);
  });
});
