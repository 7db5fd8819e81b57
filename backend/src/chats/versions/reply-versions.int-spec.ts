import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../../test/app.test-util';
import { as } from '../../../test/auth';
import { type FakeWebhook, startFakeWebhook, useSockets } from '../../../test/realtime.test-util';
import { CALLBACK_EARLIER_ROUND } from '../../agent-callbacks/agent-callbacks.service';
import type { MessageVersions, ReplyRequested } from '../../contracts/chats';
import { JobQueue } from '../../queue/job-queue';
import type { ChatView, MessageView } from '../../realtime/client-events';
import { CHAT_ARCHIVED, ChatsService, MESSAGE_NOT_FOUND } from '../chats.service';
import { ONLY_LATEST_MESSAGE, ONLY_LATEST_REPLY, REPLY_STILL_PENDING } from './reply-versions.service';

interface WebhookBody {
  message: string;
  sessionId: string;
  messageId: string;
  regenerate?: boolean;
  previousReplyId?: string | null;
  edited?: boolean;
  callbackToken?: string;
}

describe('regenerate and edit', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  const openSocket = useSockets();
  /** Messages the '/fails-once' agent has already failed. */
  const failedOnce = new Set<string>();
  /** Counts answers of the '/counting' agent, per message. */
  const answers = new Map<string, number>();
  /** '/held' answers only when released (one reply in flight, for as long as a test needs). */
  const held: Array<() => void> = [];

  beforeAll(async () => {
    hook = await startFakeWebhook({
      '/echo': (_req, res, body) => {
        const { message } = JSON.parse(body) as WebhookBody;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ output: `echo: ${message}` }]));
      },
      '/fails-once': (_req, res, body) => {
        const { messageId, message } = JSON.parse(body) as WebhookBody;
        if (!failedOnce.has(messageId)) {
          failedOnce.add(messageId);
          res.writeHead(400);
          res.end('no');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ output: `echo: ${message}` }]));
      },
      '/counting': (_req, res, body) => {
        const { messageId } = JSON.parse(body) as WebhookBody;
        const n = (answers.get(messageId) ?? 0) + 1;
        answers.set(messageId, n);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ output: `answer ${n}` }]));
      },
      '/held': (_req, res) => {
        held.push(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ output: 'held answer' }]));
        });
      },
      '/async': (_req, res) => {
        res.writeHead(202);
        res.end();
      },
    });
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '5000' });
  });
  afterAll(async () => {
    while (held.length) held.pop()?.();
    await t?.close();
    await hook?.close();
  });

  const db = () => t.app.get(DataSource);
  const drain = () => t.app.get(JobQueue).drain();
  /** Lets every held reply go (those still to come too) until the queue is idle. */
  const releaseAndDrain = async () => {
    const timer = setInterval(() => {
      while (held.length) held.pop()?.();
    }, 10);
    try {
      await drain();
    } finally {
      clearInterval(timer);
    }
  };

  async function chatWith(user: RegisteredUser, path: string, content = 'hello there') {
    const agent = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: `Agent ${path}`, webhook: `${hook.url}${path}`, signed: true })
      .expect(201);
    const sent = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: agent.body.id, content })
      .expect(201);
    await drain();
    return {
      chat: sent.body.chat as ChatView,
      message: sent.body.message as MessageView,
      secret: agent.body.signingSecret as string,
    };
  }

  const page = async (user: RegisteredUser, chatId: string) =>
    (await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200)).body as {
      messages: MessageView[];
      pendingReply: boolean;
    };
  const regenerate = (user: RegisteredUser, id: string) =>
    request(t.http).post(`/api/messages/${id}/regenerate`).set(as(user));
  const edit = (user: RegisteredUser, id: string, content: string) =>
    request(t.http).patch(`/api/messages/${id}`).set(as(user)).send({ content });
  const versionsOf = async (user: RegisteredUser, id: string) =>
    (await request(t.http).get(`/api/messages/${id}/versions`).set(as(user)).expect(200))
      .body as MessageVersions;
  const bodiesOf = (messageId: string) =>
    hook.requests
      .filter((r) => r.body.includes(messageId))
      .map((r) => ({ body: JSON.parse(r.body) as WebhookBody, id: r.headers['webhook-id'] as string }));

  it('regenerates a failed reply through the queue: the same message and session, regenerate: true', async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/fails-once', 'what is the time');
    expect((await page(user, chat.id)).messages.map((m) => m.senderType)).toEqual(['user']);
    const tab = await openSocket(t.baseUrl, user.accessToken);

    const res = await regenerate(user, message.id).expect(200);
    const answer = res.body as ReplyRequested;
    expect(answer).toMatchObject({ message: { id: message.id }, replacedReplyId: null });
    expect(answer.chat.pendingReply).toBe(true);
    await tab.waitFor('message.versioned', (p: { message: MessageView }) => p.message.id === message.id);
    await tab.waitFor('agent.typing', (p: { chatId: string; typing: boolean }) => p.typing);
    const reply = await tab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.chatId === chat.id && p.message.senderType === 'agent',
    );
    expect(reply.message).toMatchObject({ content: 'echo: what is the time', version: 1 });

    const [first, second] = bodiesOf(message.id);
    expect(first.body.regenerate).toBeUndefined();
    expect(first.id).toBe(message.id);
    expect(second.body).toMatchObject({
      message: 'what is the time',
      sessionId: chat.id,
      messageId: message.id,
      regenerate: true,
      previousReplyId: null,
    });
    // The delivery (and the job) of the round are their own, not a retry of the first.
    expect(second.id).toBe(`${message.id}-r1`);
    expect(await t.app.get(JobQueue).isQueued('agent.reply', `${message.id}-r1`)).toBe(true);
  });

  it('keeps the replaced reply as a version (with its rating); the new one starts unrated', async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/counting');
    const firstReply = (await page(user, chat.id)).messages[1];
    expect(firstReply).toMatchObject({ content: 'answer 1', version: 1 });
    await request(t.http)
      .put(`/api/messages/${firstReply.id}/feedback`)
      .set(as(user))
      .send({ score: 'dislike', reason: 'too short' })
      .expect(200);
    const otherTab = await openSocket(t.baseUrl, user.accessToken);

    const res = await regenerate(user, firstReply.id).expect(200);
    expect(res.body.replacedReplyId).toBe(firstReply.id);
    const versioned = await otherTab.waitFor<{ replacedReplyId: string | null; chatId: string }>(
      'message.versioned',
      (p) => p.chatId === chat.id,
    );
    expect(versioned.replacedReplyId).toBe(firstReply.id);
    await drain();

    const now = await page(user, chat.id);
    expect(now.messages.map((m) => [m.content, m.version ?? 1])).toEqual([
      ['hello there', 1],
      ['answer 2', 2],
    ]);
    expect(now.messages[1].feedback).toBeNull();
    const { versions } = await versionsOf(user, now.messages[1].id);
    expect(versions.map((v) => [v.version, v.content, v.feedback, v.current])).toEqual([
      [1, 'answer 1', 'dislike', false],
      [2, 'answer 2', null, true],
    ]);
    expect(versions[0].id).toBe(firstReply.id);
    // The webhook was told which reply was replaced.
    expect(bodiesOf(message.id).at(-1)?.body).toMatchObject({
      regenerate: true,
      previousReplyId: firstReply.id,
    });
    // The user message's versions (none edited): just itself.
    expect((await versionsOf(user, message.id)).versions).toHaveLength(1);
  });

  it('refuses a regenerate while a reply is in flight (409), and two at once: one of them', async () => {
    const user = await registerUser(t);
    const agent = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: 'Held', webhook: `${hook.url}/held` })
      .expect(201);
    const sent = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: agent.body.id, content: 'take your time' })
      .expect(201);
    const messageId = (sent.body.message as MessageView).id;
    const pending = await regenerate(user, messageId).expect(409);
    expect(pending.body.message).toBe(REPLY_STILL_PENDING);
    await releaseAndDrain();

    const chatId = (sent.body.chat as ChatView).id;
    const replyId = (await page(user, chatId)).messages[1].id;
    const both = await Promise.all([regenerate(user, replyId), regenerate(user, messageId)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)?.body.message).toBe(REPLY_STILL_PENDING);
    await releaseAndDrain();
    const after = await page(user, chatId);
    expect(after.pendingReply).toBe(false);
    expect(after.messages.map((m) => m.senderType)).toEqual(['user', 'agent']);
  });

  it('edits the latest message: the webhook gets the new text and the same session; history kept, audited', async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/echo', 'frist try');
    const otherTab = await openSocket(t.baseUrl, user.accessToken);

    const res = await edit(user, message.id, '  first try  ').expect(200);
    expect(res.body.message).toMatchObject({ id: message.id, content: 'first try', version: 2 });
    const pushed = await otherTab.waitFor<{ message: MessageView }>(
      'message.versioned',
      (p) => p.message.id === message.id,
    );
    expect(pushed.message.content).toBe('first try');
    await otherTab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.chatId === chat.id && p.message.senderType === 'agent',
    );
    await drain();
    const last = bodiesOf(message.id).at(-1)!;
    expect(last.body).toMatchObject({ message: 'first try', sessionId: chat.id, edited: true });
    expect(last.body.regenerate).toBeUndefined();
    expect((await page(user, chat.id)).messages.map((m) => m.content)).toEqual([
      'first try',
      'echo: first try',
    ]);
    const { versions } = await versionsOf(user, message.id);
    expect(versions.map((v) => [v.version, v.content, v.current])).toEqual([
      [1, 'frist try', false],
      [2, 'first try', true],
    ]);
    const audit = await db().query(
      `SELECT action, actor_id, target_type, target_id, company_id FROM audit_log WHERE target_id = $1`,
      [message.id],
    );
    expect(audit).toEqual([
      {
        action: 'message.edited',
        actor_id: user.userId,
        target_type: 'message',
        target_id: message.id,
        company_id: user.companyId,
      },
    ]);
    expect((await edit(user, message.id, '   ').expect(400)).body.message).toBe('Please enter a message');
  });

  it('offers neither on older messages, nor in an archived chat, nor to anyone but the owner', async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/echo', 'one');
    const firstReply = (await page(user, chat.id)).messages[1];
    await request(t.http)
      .post(`/api/chats/${chat.id}/messages`)
      .set(as(user))
      .send({ content: 'two' })
      .expect(201);
    await drain();
    expect((await regenerate(user, firstReply.id).expect(400)).body.message).toBe(ONLY_LATEST_REPLY);
    expect((await edit(user, message.id, 'changed').expect(400)).body.message).toBe(ONLY_LATEST_MESSAGE);

    const stranger = await registerUser(t);
    const latest = (await page(user, chat.id)).messages.at(-1)!;
    expect((await regenerate(stranger, latest.id).expect(404)).body.message).toBe(MESSAGE_NOT_FOUND);
    await request(t.http).get(`/api/messages/${latest.id}/versions`).set(as(stranger)).expect(404);

    await request(t.http).patch(`/api/chats/${chat.id}`).set(as(user)).send({ isArchived: true }).expect(200);
    expect((await regenerate(user, latest.id).expect(400)).body.message).toBe(CHAT_ARCHIVED);
    expect((await edit(user, message.id, 'x').expect(400)).body.message).toBe(CHAT_ARCHIVED);
    // Nothing changed.
    expect((await page(user, chat.id)).messages.map((m) => m.content)).toEqual([
      'one',
      'echo: one',
      'two',
      'echo: two',
    ]);
  });

  it("refuses a late callback of an earlier round: it cannot overwrite the new round's reply", async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/async', 'long job');
    const [round0] = bodiesOf(message.id);
    // The first round gives up (as the deadline sweep would): the user asks again.
    await t.app.get(ChatsService).failReply(message.id, 'The agent did not answer in time.', 'timeout');
    await regenerate(user, message.id).expect(200);
    await drain();
    const round1 = bodiesOf(message.id)[1];
    expect(round1.body.callbackToken).not.toBe(round0.body.callbackToken);

    const late = await request(t.http)
      .post(`/api/agent-callbacks/${message.id}`)
      .set('Authorization', `Bearer ${round0.body.callbackToken}`)
      .send({ output: 'the old answer' })
      .expect(409);
    expect(late.body.message).toBe(CALLBACK_EARLIER_ROUND);
    // A job of the earlier round (a duplicate run) stores nothing either.
    expect(await t.app.get(ChatsService).storeReply(message.id, 'stale', undefined, 0)).toBe(false);

    await request(t.http)
      .post(`/api/agent-callbacks/${message.id}`)
      .set('Authorization', `Bearer ${round1.body.callbackToken}`)
      .send({ output: 'the new answer' })
      .expect(200);
    expect((await page(user, chat.id)).messages.map((m) => m.content)).toEqual([
      'long job',
      'the new answer',
    ]);
  });

  it('moves the catch-up version on ratings, regenerates and edits (an offline tab reloads)', async () => {
    const user = await registerUser(t);
    const scope = { userId: user.userId, companyId: user.companyId };
    const chats = t.app.get(ChatsService);
    const { chat, message } = await chatWith(user, '/echo', 'version me');
    const replyId = (await page(user, chat.id)).messages[1].id;
    const v0 = (await chats.syncVersion(scope)).version;
    await request(t.http)
      .put(`/api/messages/${replyId}/feedback`)
      .set(as(user))
      .send({ score: 'like' })
      .expect(200);
    const v1 = (await chats.syncVersion(scope)).version;
    expect(v1).not.toBe(v0);
    await edit(user, message.id, 'versioned').expect(200);
    await drain();
    const v2 = (await chats.syncVersion(scope)).version;
    expect(v2).not.toBe(v1);
    expect((await chats.syncVersion(scope)).pending).toBe(false);
  });

  it('queues a lost regenerate again as what it was (its round, the replaced reply)', async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/counting', 'lose me');
    const replyId = (await page(user, chat.id)).messages[1].id;
    // The queue refuses the regenerate's job (Redis gone): the reply stays pending, the sweep has it.
    jest.spyOn(t.app.get(JobQueue), 'enqueue').mockRejectedValueOnce(new Error('queue down'));
    await regenerate(user, replyId).expect(200);
    await db().query(
      `UPDATE messages SET reply_requested_at = reply_requested_at - interval '1 minute' WHERE id = $1`,
      [message.id],
    );
    await db().query(
      `UPDATE message_versions SET replaced_at = replaced_at - interval '1 minute' WHERE message_id = $1`,
      [message.id],
    );
    expect(await t.app.get(ChatsService).requeueLostReplies()).toBeGreaterThanOrEqual(1);
    await drain();
    const last = bodiesOf(message.id).at(-1)!;
    expect(last.id).toBe(`${message.id}-r1`);
    expect(last.body).toMatchObject({ regenerate: true, previousReplyId: replyId });
    expect((await page(user, chat.id)).messages.map((m) => m.content)).toEqual(['lose me', 'answer 2']);
  });

  it('exports the earlier versions with the message', async () => {
    const user = await registerUser(t);
    const { chat, message } = await chatWith(user, '/counting', 'export me');
    await regenerate(user, message.id).expect(200);
    await drain();
    const json = await request(t.http)
      .get(`/api/chats/${chat.id}/export?format=json`)
      .set(as(user))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => done(null, text));
      })
      .expect(200);
    const doc = JSON.parse(json.body as string) as {
      messages: Array<{ content: string; version?: number; earlier_versions?: Array<{ content: string }> }>;
    };
    expect(doc.messages[1]).toMatchObject({
      content: 'answer 2',
      version: 2,
      earlier_versions: [{ version: 1, content: 'answer 1' }],
    });
    const md = await request(t.http).get(`/api/chats/${chat.id}/export?format=md`).set(as(user)).expect(200);
    expect(md.text).toContain('> Earlier version 1');
    expect(md.text).toContain('> answer 1');
  });
});
