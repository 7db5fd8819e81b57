import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { forgedKeysetCursors } from '../../test/cursors';
import { connectSocket, startFakeWebhook, type FakeWebhook, useSockets } from '../../test/realtime.test-util';
import type { ChatView, MessageView } from '../realtime/client-events';
import { signWebhook, SORRY_REPLY } from '../webhooks/webhook-client';
import { newChat, newMessage } from '../../test/factories';
import { AgentsRepository } from '../agents/agents.repository';
import type { ChatPage } from '../contracts/chats';
import { ChatsService, INVALID_CHAT_CURSOR } from './chats.service';
import { MessageEntity } from './message.entity';
import { AgentReplyJobHandler } from './jobs/agent-reply.job';
import { MessagesRepository } from './messages.repository';
import { AgentCallbackTokensService } from '../agent-callbacks/agent-callback-tokens.service';
import { DataSource } from 'typeorm';

describe('agents and live chat (real PostgreSQL, in-process queue)', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  const openSocket = useSockets();

  beforeAll(async () => {
    hook = await startFakeWebhook();
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '800' });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const socketFor = (user: RegisteredUser) => openSocket(t.baseUrl, user.accessToken);
  const createAgent = async (user: RegisteredUser, path: string, extra: Record<string, unknown> = {}) => {
    const res = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: `Agent ${path}`, webhook: `${hook.url}${path}`, ...extra })
      .expect(201);
    return res.body as { id: string; signingSecret?: string };
  };
  const sendFirst = async (user: RegisteredUser, agentId: string, content: string) => {
    const res = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId, content })
      .expect(201);
    return res.body as { chat: ChatView; message: MessageView };
  };
  const scopeOf = (user: RegisteredUser) => ({ userId: user.userId, companyId: user.companyId });
  const messagesOf = async (user: RegisteredUser, chatId: string) => {
    const res = await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
    return res.body as { messages: MessageView[]; pendingReply: boolean; hasMore: boolean };
  };

  describe('agents', () => {
    it('creates, edits and deletes an agent, each change pushed to the user', async () => {
      const user = await registerUser(t);
      const tab = await socketFor(user);
      const agent = await createAgent(user, '/ok', { description: 'Echoes', signed: true });
      expect(agent.signingSecret).toMatch(/^whsec_/);
      await tab.waitFor('agent.created', (p: { agent: { id: string } }) => p.agent.id === agent.id);
      const edited = await request(t.http)
        .patch(`/api/agents/${agent.id}`)
        .set(as(user))
        .send({ name: 'Renamed', defaultQuestions: ['One?', '  ', 'Two?'] })
        .expect(200);
      expect(edited.body).toMatchObject({
        name: 'Renamed',
        defaultQuestions: ['One?', 'Two?'],
        hasSigningSecret: true,
      });
      await tab.waitFor('agent.updated', (p: { agent: { name: string } }) => p.agent.name === 'Renamed');
      await request(t.http).delete(`/api/agents/${agent.id}`).set(as(user)).expect(204);
      await tab.waitFor('agent.deleted', (p: { agentId: string }) => p.agentId === agent.id);
      const after = await request(t.http).get('/api/agents').set(as(user)).expect(200);
      expect(after.body.map((a: { id: string }) => a.id)).toEqual(['default-agent']);
    });

    it.each([
      [{ name: '', webhook: 'https://example.com/hook' }, 'Agent name is required'],
      [{ name: 'A', webhook: '   ' }, 'Webhook URL is required'],
      [{ name: 'A', webhook: 'ftp://example.com/x' }, 'The webhook URL must start with http:// or https://'],
      [{ name: 'A', webhook: 'not a url' }, 'Please enter a valid webhook URL (http:// or https://)'],
      [
        { name: 'A', webhook: 'https://example.com', defaultQuestions: ['1', '2', '3', '4', '5'] },
        'You can only have up to 4 default questions',
      ],
      [
        { name: 'A', webhook: 'http://169.254.169.254/latest/meta-data' },
        expect.stringContaining('private or local network'),
      ],
      [
        { name: 'A', webhook: 'http://127.0.0.1:1/hook' },
        expect.stringContaining('private or local network'),
      ],
      [{ name: 'A', webhook: 'http://[::1]:8080/hook' }, expect.stringContaining('private or local network')],
      [{ name: 'A', webhook: 'http://10.1.2.3/hook' }, expect.stringContaining('private or local network')],
      // IPv4-compatible IPv6 literals of the loopback address.
      [{ name: 'A', webhook: 'http://[::127.0.0.1]/' }, expect.stringContaining('private or local network')],
      [{ name: 'A', webhook: 'http://[::7f00:1]/' }, expect.stringContaining('private or local network')],
      [{ name: 'A', webhook: 'http://100.64.0.1/hook' }, expect.stringContaining('private or local network')],
      [
        { name: 'A', webhook: 'http://localhost:5678/webhook' },
        expect.stringContaining('private or local network'),
      ],
    ])('refuses %j on save with a readable 400', async (body, message) => {
      const user = await registerUser(t);
      const res = await request(t.http).post('/api/agents').set(as(user)).send(body).expect(400);
      expect(res.body.message).toEqual(message);
    });

    it('needs a company the user belongs to', async () => {
      const user = await registerUser(t);
      const other = await registerUser(t);
      const none = await request(t.http)
        .get('/api/agents')
        .set({ Authorization: `Bearer ${user.accessToken}` })
        .expect(400);
      expect(none.body.message).toBe('No company selected');
      await request(t.http).get('/api/agents').set(as(user, other.companyId)).expect(404);
      await request(t.http).get('/api/agents').set(as(user, 'garbage')).expect(404);
    });
  });

  describe('the message path', () => {
    it('stores the message, calls the webhook, stores the reply once and pushes it to every tab of the user only', async () => {
      const user = await registerUser(t);
      const stranger = await registerUser(t);
      const tabA = await socketFor(user);
      const tabB = await socketFor(user);
      const strangerTab = await socketFor(stranger);
      const agent = await createAgent(user, '/ok', { signed: true });

      const { chat, message } = await sendFirst(user, agent.id, '  hello there  ');
      expect(chat.title).toBe('Chat with Agent /ok');
      expect(message).toMatchObject({ content: 'hello there', senderType: 'user' });

      for (const tab of [tabA, tabB]) {
        await tab.waitFor('chat.created', (p: { chat: ChatView }) => p.chat.id === chat.id);
        await tab.waitFor('agent.typing', (p: { typing: boolean }) => p.typing);
        const reply = await tab.waitFor<{ message: MessageView }>(
          'message.created',
          (p) => p.message.senderType === 'agent',
        );
        expect(reply.message.content).toBe('pong: hello there');
        await tab.waitFor('agent.typing', (p: { typing: boolean }) => !p.typing);
      }
      // Events reach a socket in the order they were sent: once the stranger's own later event is in,
      // anything leaked to them earlier would be too.
      const marker = await request(t.http)
        .post('/api/chats')
        .set(as(stranger))
        .send({ agentId: 'default-agent' })
        .expect(201);
      await strangerTab.waitFor('chat.created', (p: { chat: ChatView }) => p.chat.id === marker.body.id);
      const leaked = strangerTab.events.filter(
        (e) => e.event !== 'agent.created' && (e.payload as { chat?: ChatView }).chat?.id !== marker.body.id,
      );
      expect(leaked).toEqual([]);

      const call = hook.requests.find((r) => r.path === '/ok' && JSON.parse(r.body).messageId === message.id);
      expect(call).toBeDefined();
      expect(JSON.parse(call!.body)).toEqual({
        message: 'hello there',
        sessionId: chat.id,
        chatId: chat.id,
        messageId: message.id,
        agentId: agent.id,
        userId: user.userId,
        companyId: user.companyId,
        // For an agent that answers 202 Accepted and delivers later (agent-callbacks/).
        callbackUrl: `${t.config.appOrigin}/api/agent-callbacks/${message.id}`,
        callbackToken: expect.stringMatching(/^[\w-]{43}$/),
      });
      expect(call!.headers['webhook-id']).toBe(message.id);
      const ts = Number(call!.headers['webhook-timestamp']);
      expect(call!.headers['webhook-signature']).toBe(
        signWebhook(agent.signingSecret!, message.id, ts, call!.body),
      );

      const history = await messagesOf(user, chat.id);
      expect(history.messages.map((m) => [m.senderType, m.content])).toEqual([
        ['user', 'hello there'],
        ['agent', 'pong: hello there'],
      ]);
      expect(history.pendingReply).toBe(false);
    });

    it('answers with the built-in demo agent out of the box', async () => {
      const user = await registerUser(t);
      const tab = await socketFor(user);
      const { chat } = await sendFirst(user, 'default-agent', 'hello');
      const reply = await tab.waitFor<{ message: MessageView }>(
        'message.created',
        (p) => p.message.senderType === 'agent',
      );
      expect(reply.message.content).toMatch(/demo agent/i);
      expect(chat.agentId).toBe('default-agent');
    });

    it.each([
      ['/500', 3, 'Webhook response error: 500'],
      ['/400', 1, 'Webhook response error: 400'],
      ['/redirect', 1, 'Webhook response error: 302'],
      ['/huge', 1, 'The agent answered with more than 1 MB.'],
      ['/slow', 3, 'The agent did not answer in time.'],
    ])(
      '%s: tried %i time(s), then reply_failed; the user message stays',
      async (path, tries, reason) => {
        const user = await registerUser(t);
        const tab = await socketFor(user);
        const agent = await createAgent(user, path);
        const { chat, message } = await sendFirst(user, agent.id, `to ${path}`);
        const failed = await tab.waitFor<{ messageId: string; reason: string }>(
          'agent.reply_failed',
          undefined,
          15_000,
        );
        expect(failed).toMatchObject({ messageId: message.id, chatId: chat.id, reason });
        await tab.waitFor('agent.typing', (p: { typing: boolean }) => !p.typing);
        await t.drain();
        const calls = hook.requests.filter(
          (r) => r.path === path && JSON.parse(r.body).messageId === message.id,
        );
        expect(calls).toHaveLength(tries);
        expect(new Set(calls.map((c) => c.headers['webhook-id']))).toEqual(new Set([message.id]));
        const history = await messagesOf(user, chat.id);
        expect(history.messages.map((m) => m.content)).toEqual([`to ${path}`]);
        expect(history.pendingReply).toBe(false);
      },
      30_000,
    );

    it('a malformed answer becomes the apology, as the spec says', async () => {
      const user = await registerUser(t);
      const tab = await socketFor(user);
      const agent = await createAgent(user, '/malformed');
      await sendFirst(user, agent.id, 'hi');
      const reply = await tab.waitFor<{ message: MessageView }>(
        'message.created',
        (p) => p.message.senderType === 'agent',
      );
      expect(reply.message.content).toBe(SORRY_REPLY);
    });

    it('refuses at call time a private address that slipped past the save check', async () => {
      const user = await registerUser(t);
      const tab = await socketFor(user);
      const agent = await createAgent(user, '/ok');
      await t.app.get(AgentsRepository).update(scopeOf(user), agent.id, { webhook: 'http://127.0.0.1:9/x' });
      await sendFirst(user, agent.id, 'hi');
      const failed = await tab.waitFor<{ reason: string }>('agent.reply_failed');
      expect(failed.reason).toMatch(/private or local network/);
    });

    it('a reply job processed twice (even at once) stores one reply', async () => {
      const user = await registerUser(t);
      const agent = await createAgent(user, '/ok');
      const chat = await t.app.get(ChatsService).create(scopeOf(user), agent.id);
      const db = t.app.get(DataSource);
      const row = await newMessage(t.app, scopeOf(user), chat.id, {
        content: 'twice',
        replyStatus: 'pending',
      });
      const handler = t.app.get(AgentReplyJobHandler);
      await Promise.all([
        handler.sendAgentReply({ messageId: row.id }, { attempt: 1, maxAttempts: 3 }),
        handler.sendAgentReply({ messageId: row.id }, { attempt: 1, maxAttempts: 3 }),
      ]);
      await handler.sendAgentReply({ messageId: row.id }, { attempt: 1, maxAttempts: 3 });
      const replies = await db.getRepository(MessageEntity).find({ where: { replyTo: row.id } });
      expect(replies.map((reply) => reply.content)).toEqual(['pong: twice']);
    });

    it("a send's first attempt calls the webhook as a job that reads the message back does", async () => {
      const user = await registerUser(t);
      const agent = await createAgent(user, '/ok', { signed: true });
      const chat = await t.app.get(ChatsService).create(scopeOf(user), agent.id);
      const reads = jest.spyOn(t.app.get(MessagesRepository), 'findPendingReply');
      const sent = await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(user))
        .send({ content: 'same call' })
        .expect(201);
      const messageId = (sent.body as MessageView).id;
      await t.drain();
      // The first attempt took what the send read: the message was not read back.
      expect(reads.mock.calls.filter(([id]) => id === messageId)).toEqual([]);
      // The same message asked again by a job that reads it back (a retry, or a worker's job).
      const db = t.app.get(DataSource);
      await db.query(`DELETE FROM messages WHERE reply_to = $1`, [messageId]);
      await db.query(`UPDATE messages SET reply_status = 'pending' WHERE id = $1`, [messageId]);
      await t.app.get(AgentReplyJobHandler).sendAgentReply({ messageId }, { attempt: 1, maxAttempts: 3 });
      expect(reads.mock.calls.filter(([id]) => id === messageId)).toHaveLength(1);
      reads.mockRestore();
      const calls = hook.requests.filter(
        (r) => r.path === '/ok' && JSON.parse(r.body).messageId === messageId,
      );
      expect(calls).toHaveLength(2);
      const [first, reread] = calls.map((call) => JSON.parse(call.body) as Record<string, string>);
      expect({ ...first, callbackToken: null }).toEqual({ ...reread, callbackToken: null });
      expect(first).toMatchObject({
        chatId: chat.id,
        agentId: agent.id,
        userId: user.userId,
        message: 'same call',
      });
      // Each token is the message's, for round 0, expiring the agent's deadline after its call was made.
      const tokens = t.app.get(AgentCallbackTokensService);
      const [firstToken, rereadToken] = [first, reread].map((body) =>
        tokens.verify(messageId, body.callbackToken),
      );
      expect(firstToken).toEqual({ expiresAtMs: expect.any(Number), round: 0 });
      expect(rereadToken).toEqual({ expiresAtMs: expect.any(Number), round: 0 });
      expect(firstToken!.expiresAtMs).toBeLessThanOrEqual(rereadToken!.expiresAtMs);
      expect(Math.abs(firstToken!.expiresAtMs - (Date.now() + 10 * 60_000))).toBeLessThan(10_000);
      for (const call of calls) {
        expect(call.headers['webhook-id']).toBe(messageId);
        const ts = Number(call.headers['webhook-timestamp']);
        expect(call.headers['webhook-signature']).toBe(
          signWebhook(agent.signingSecret!, messageId, ts, call.body),
        );
      }
    });

    it('takes more simultaneous messages than the pool has connections without locking up', async () => {
      const user = await registerUser(t);
      const agent = await createAgent(user, '/ok');
      const chats = await Promise.all(
        // Titled: an untitled New Chat gives back the user's empty chat with that agent (one for all 30).
        Array.from({ length: 30 }, (_, i) =>
          t.app.get(ChatsService).create(scopeOf(user), agent.id, `Burst ${i}`),
        ),
      );
      const results = await Promise.all(
        chats.map((chat, i) =>
          request(t.http)
            .post(`/api/chats/${chat.id}/messages`)
            .set(as(user))
            .send({ content: `burst ${i}` }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(chats.map(() => 201));
      await t.drain();
    }, 30_000);

    it('refuses a second message while the agent is answering, and blank messages', async () => {
      const user = await registerUser(t);
      const agent = await createAgent(user, '/slow');
      const { chat } = await sendFirst(user, agent.id, 'first');
      const busy = await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(user))
        .send({ content: 'second' })
        .expect(409);
      expect(busy.body.message).toMatch(/wait for the agent/);
      const blank = await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(user))
        .send({ content: '  \n ' })
        .expect(400);
      expect(blank.body.message).toBe('Please enter a message');
      await request(t.http).post(`/api/chats/${chat.id}/messages`).set(as(user)).send({}).expect(400);
      await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(user))
        .send({ content: 42 })
        .expect(400);
    });
  });

  describe('chats', () => {
    it('renames, archives, restores and deletes, each pushed to every tab', async () => {
      const user = await registerUser(t);
      const tab = await socketFor(user);
      const { chat } = await sendFirst(user, 'default-agent', 'hello');
      await request(t.http)
        .patch(`/api/chats/${chat.id}`)
        .set(as(user))
        .send({ title: 'Renamed' })
        .expect(200);
      await tab.waitFor('chat.updated', (p: { chat: ChatView }) => p.chat.title === 'Renamed');
      await request(t.http)
        .patch(`/api/chats/${chat.id}`)
        .set(as(user))
        .send({ isArchived: true })
        .expect(200);
      await tab.waitFor('chat.updated', (p: { chat: ChatView }) => p.chat.isArchived);
      const archived = await request(t.http).get('/api/chats?archived=true').set(as(user)).expect(200);
      expect(archived.body.chats.map((c: ChatView) => c.id)).toEqual([chat.id]);
      const active = await request(t.http).get('/api/chats').set(as(user)).expect(200);
      expect(active.body.chats).toEqual([]);
      await request(t.http)
        .patch(`/api/chats/${chat.id}`)
        .set(as(user))
        .send({ isArchived: false })
        .expect(200);
      await request(t.http).delete(`/api/chats/${chat.id}`).set(as(user)).expect(204);
      await tab.waitFor('chat.deleted', (p: { chatId: string }) => p.chatId === chat.id);
      await request(t.http).get(`/api/chats/${chat.id}/messages`).set(as(user)).expect(404);
      expect(await t.app.get(DataSource).getRepository(MessageEntity).countBy({ chatId: chat.id })).toBe(0);
    });

    it("never lets one user read or write another's chats, agents or messages", async () => {
      const alice = await registerUser(t);
      const mallory = await registerUser(t);
      const agent = await createAgent(alice, '/ok');
      const { chat } = await sendFirst(alice, agent.id, 'secret');
      await request(t.http).get(`/api/chats/${chat.id}/messages`).set(as(mallory)).expect(404);
      await request(t.http)
        .get(`/api/chats/${chat.id}/messages`)
        .set(as(mallory, alice.companyId))
        .expect(404);
      await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(mallory))
        .send({ content: 'x' })
        .expect(404);
      await request(t.http)
        .patch(`/api/chats/${chat.id}`)
        .set(as(mallory))
        .send({ title: 'pwned' })
        .expect(404);
      await request(t.http).delete(`/api/chats/${chat.id}`).set(as(mallory)).expect(404);
      await request(t.http)
        .post('/api/messages')
        .set(as(mallory))
        .send({ agentId: agent.id, content: 'x' })
        .expect(404);
      await request(t.http).patch(`/api/agents/${agent.id}`).set(as(mallory)).send({ name: 'x' }).expect(404);
      await request(t.http).delete(`/api/agents/${agent.id}`).set(as(mallory)).expect(404);
      const list = await request(t.http).get('/api/chats').set(as(mallory)).expect(200);
      expect(list.body.chats).toEqual([]);
    });

    it("refuses what a message history's query string may not hold", async () => {
      const user = await registerUser(t);
      const chat = await newChat(t.app, scopeOf(user), { messages: 2 });
      await request(t.http).get(`/api/chats/${chat.id}/messages?limit=0`).set(as(user)).expect(400);
      await request(t.http).get(`/api/chats/${chat.id}/messages?before=abc`).set(as(user)).expect(400);
      // One past PostgreSQL's bigint: refused by validation, before it reaches the database.
      const tooBig = await request(t.http)
        .get(`/api/chats/${chat.id}/messages?after=9223372036854775808`)
        .set(as(user))
        .expect(400);
      expect(tooBig.body.message).toBe('after must be a message seq');
      await request(t.http)
        .get(`/api/chats/${chat.id}/messages?after=9223372036854775807`)
        .set(as(user))
        .expect(200);
    });

    it("answers a tampered cursor or a bad limit of the chat list with a readable 400, and a non-member's list with 404", async () => {
      const user = await registerUser(t);
      for (let i = 0; i < 4; i++) await newChat(t.app, scopeOf(user));
      const { nextCursor } = (await request(t.http).get('/api/chats?limit=2').set(as(user)).expect(200))
        .body as ChatPage;
      expect(nextCursor).toEqual(expect.any(String));
      for (const cursor of [...forgedKeysetCursors(nextCursor ?? ''), 'x'.repeat(201)]) {
        const res = await request(t.http)
          .get(`/api/chats?cursor=${encodeURIComponent(cursor)}`)
          .set(as(user))
          .expect(400);
        expect(res.body.message).toEqual(expect.stringMatching(/cursor/i));
      }
      const decoded = await request(t.http)
        .get(`/api/chats?cursor=${Buffer.from('hello').toString('base64url')}`)
        .set(as(user))
        .expect(400);
      expect(decoded.body.message).toBe(INVALID_CHAT_CURSOR);
      const twice = await request(t.http).get('/api/chats?cursor=a&cursor=b').set(as(user)).expect(400);
      expect(twice.body.message).toBe('Invalid cursor');
      for (const limit of ['0', '201', 'abc', '1.5', '-1']) {
        const res = await request(t.http).get(`/api/chats?limit=${limit}`).set(as(user)).expect(400);
        expect(res.body.message).toMatch(/limit must be/);
      }
      // The largest page is allowed.
      expect(
        (await request(t.http).get('/api/chats?limit=200').set(as(user)).expect(200)).body.chats,
      ).toHaveLength(4);
      const stranger = await registerUser(t);
      await request(t.http).get('/api/chats').set(as(stranger, user.companyId)).expect(404);
    });
  });

  describe('sockets', () => {
    it('refuses a handshake without a valid token or from a foreign origin', async () => {
      await expect(connectSocket(t.baseUrl, 'nope')).rejects.toThrow(/unauthorized/);
      const user = await registerUser(t);
      await expect(
        connectSocket(t.baseUrl, user.accessToken, { origin: 'https://evil.example' }),
      ).rejects.toThrow(/origin/);
    });

    it('disconnects the sockets of a session that signs out', async () => {
      const user = await registerUser(t);
      const tab = await socketFor(user);
      const gone = new Promise<void>((resolve) => tab.socket.on('disconnect', () => resolve()));
      await request(t.http).post('/api/auth/logout').set('Cookie', user.refreshCookie).expect(204);
      await gone;
      expect(tab.events.map((e) => e.event)).toContain('session.revoked');
    });
  });
});
