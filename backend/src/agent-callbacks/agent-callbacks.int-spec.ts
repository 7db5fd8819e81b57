import http from 'node:http';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { dateMessage } from '../../test/factories';
import {
  connectSocket,
  type EventLog,
  startFakeWebhook,
  type FakeWebhook,
} from '../../test/realtime.test-util';
import { REPLY_DEADLINE_RULE } from '../agents/dto/agent.dto';
import { StaleReplySweeper } from '../chats/jobs/stale-reply.sweeper';
import type { ChatView, MessageView } from '../realtime/client-events';
import { MessageEntity } from '../chats/message.entity';
import { AgentCallbackWaitEntity } from './agent-callback-wait.entity';
import { AgentCallbackTokensService } from './agent-callback-tokens.service';
import {
  CALLBACK_ALREADY_USED,
  CALLBACK_EXPIRED,
  CALLBACK_MESSAGE_GONE,
  CALLBACK_REPLY_FAILED,
  CALLBACK_REPLY_STOPPED,
  CALLBACK_TOKEN_INVALID,
  CALLBACK_TOKEN_REQUIRED,
} from './agent-callbacks.service';
import { CALLBACK_BODY_INVALID, CALLBACK_STREAM_EMPTY } from './callback-body';
import { callbackTokenKey, mintCallbackToken, verifyCallbackToken } from './callback-token';
import { NUL_IN_TEXT, TOO_DEEP } from '../common/hostile-body';

/** What a long-running agent receives in the webhook body. */
interface AsyncDelivery {
  message: string;
  messageId: string;
  callbackUrl: string;
  callbackToken: string;
}

describe('long-running agents: 202 Accepted, then a callback (real PostgreSQL, in-process queue)', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  let db: DataSource;
  const sockets: EventLog[] = [];
  /** Message ids the flaky webhook has already failed once. */
  const failedOnce = new Set<string>();

  beforeAll(async () => {
    hook = await startFakeWebhook({
      '/async': (_req, res) => {
        res.writeHead(202);
        res.end();
      },
      // An ordinary agent: answers at once.
      '/sync': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ output: 'right away' }]));
      },
      // The first delivery of each message fails (retried), the second is accepted.
      '/flaky-async': (_req, res, body) => {
        const { messageId } = JSON.parse(body) as { messageId: string };
        const first = !failedOnce.has(messageId);
        failedOnce.add(messageId);
        res.writeHead(first ? 503 : 202);
        res.end();
      },
    });
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '2000' });
    db = t.app.get(DataSource);
  });
  afterEach(() => {
    while (sockets.length) sockets.pop()?.close();
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const socketFor = async (user: RegisteredUser) => {
    const s = await connectSocket(t.baseUrl, user.accessToken);
    sockets.push(s);
    return s;
  };
  const createAgent = async (user: RegisteredUser, path: string, extra: Record<string, unknown> = {}) => {
    const res = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: `Agent ${path}`, webhook: `${hook.url}${path}`, ...extra })
      .expect(201);
    return res.body as { id: string; callbackDeadlineMinutes: number };
  };
  const deliveriesOf = (messageId: string): AsyncDelivery[] =>
    hook.requests
      .map((r) => JSON.parse(r.body) as AsyncDelivery)
      .filter((body) => body.messageId === messageId);
  /** A first message to an agent that answers 202; resolves once its job is done. */
  const sendAsync = async (user: RegisteredUser, path = '/async') => {
    const agent = await createAgent(user, path);
    const res = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: agent.id, content: 'write me a long report' })
      .expect(201);
    const { chat, message } = res.body as { chat: ChatView; message: MessageView };
    await t.drain();
    const deliveries = deliveriesOf(message.id);
    return {
      chatId: chat.id,
      messageId: message.id,
      delivery: deliveries.at(-1) as AsyncDelivery,
      deliveries,
    };
  };
  const callBack = (messageId: string, token: string | null, body: unknown) => {
    const req = request(t.http).post(`/api/agent-callbacks/${messageId}`);
    if (token !== null) req.set('Authorization', `Bearer ${token}`);
    return req.send(body as object);
  };
  const historyOf = async (user: RegisteredUser, chatId: string) => {
    const res = await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
    const page = res.body as { messages: MessageView[]; pendingReply: boolean };
    return { contents: page.messages.map((m) => m.content), pendingReply: page.pendingReply };
  };
  const replyStatusOf = async (messageId: string) =>
    (await db.getRepository(MessageEntity).findOneBy({ id: messageId }))?.replyStatus;
  const sweep = () => t.app.get(StaleReplySweeper).sweepStaleReplies();
  const waitsOf = async (messageId: string) =>
    (await db.query(
      `SELECT expires_at, deadline_minutes,
         round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes
       FROM agent_callback_waits WHERE message_id = $1`,
      [messageId],
    )) as Array<{ expires_at: Date; deadline_minutes: number; minutes: number }>;
  const countWaits = () => db.getRepository(AgentCallbackWaitEntity).count();
  /** A token of the message as the server mints them, expiring at `expiresAtMs` (Unix ms). */
  const tokenFor = (messageId: string, expiresAtMs: number) =>
    t.app.get(AgentCallbackTokensService).grant(messageId, expiresAtMs).callbackToken;

  it('sends callbackUrl and a token, keeps the reply pending on 202, and stores the callback once, pushed live', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId, delivery } = await sendAsync(user);
    expect(delivery.callbackUrl).toBe(`${t.config.appOrigin}/api/agent-callbacks/${messageId}`);
    expect(delivery.callbackToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The token is not stored: the 202 wrote the wait, with the token's own expiry as its deadline.
    const waits = await waitsOf(messageId);
    expect(waits).toHaveLength(1);
    expect(JSON.stringify(waits)).not.toContain(delivery.callbackToken);
    const key = callbackTokenKey(t.config.jwtSecret);
    expect(waits[0].expires_at.getTime()).toBe(verifyCallbackToken(key, messageId, delivery.callbackToken));
    expect(waits[0].deadline_minutes).toBe(10);
    // 202: the job is over, the reply is not: the typing indicator stays on every tab.
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: true,
    });
    expect(tab.events.filter((e) => e.event === 'agent.typing').map((e) => e.payload)).toEqual([
      expect.objectContaining({ chatId, typing: true }),
    ]);

    const ok = await callBack(messageId, delivery.callbackToken, { output: 'Here is the report.' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    const created = await tab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.senderType === 'agent',
    );
    expect(created.message.content).toBe('Here is the report.');
    await tab.waitFor<{ typing: boolean }>('agent.typing', (p) => !p.typing);
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report', 'Here is the report.'],
      pendingReply: false,
    });

    // Twice: the replay is refused and changes nothing.
    const replay = await callBack(messageId, delivery.callbackToken, { output: 'Here it is again.' });
    expect(replay.status).toBe(409);
    expect(replay.body.message).toBe(CALLBACK_ALREADY_USED);
    expect((await historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'Here is the report.',
    ]);
    expect(tab.events.filter((e) => e.event === 'message.created')).toHaveLength(2);
  });

  it('takes the classic [{"output": ...}] shape and replies up to the 1 MB cap', async () => {
    const user = await registerUser(t);
    const { chatId, messageId, delivery } = await sendAsync(user);
    const long = 'x'.repeat(300 * 1024); // over the 100 kB other routes take
    await callBack(messageId, delivery.callbackToken, [{ output: long }]).expect(200);
    expect((await historyOf(user, chatId)).contents).toEqual(['write me a long report', long]);

    const streamed = await sendAsync(await registerUser(t));
    const tooLargeStream = await request(t.http)
      .post(`/api/agent-callbacks/${streamed.messageId}`)
      .set('Authorization', `Bearer ${streamed.delivery.callbackToken}`)
      .set('Content-Type', 'text/plain')
      .send('y'.repeat(1024 * 1024 + 1));
    expect(tooLargeStream.status).toBe(413);
    expect(await replyStatusOf(streamed.messageId)).toBe('pending');

    const other = await sendAsync(await registerUser(t));
    const tooLarge = await callBack(other.messageId, other.delivery.callbackToken, {
      output: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(tooLarge.status).toBe(413);
    expect(await replyStatusOf(other.messageId)).toBe('pending');
  });

  it('takes a streamed body (n8n NDJSON, SSE, plain text) and stores its text once', async () => {
    const user = await registerUser(t);
    const ndjson = [
      { type: 'begin', metadata: { nodeId: 'n1' } },
      { type: 'item', content: 'Hello ', metadata: { nodeId: 'n1' } },
      { type: 'item', content: 'from n8n.', metadata: { nodeId: 'n1' } },
      { type: 'end', metadata: { nodeId: 'n1' } },
    ]
      .map((chunk) => JSON.stringify(chunk))
      .join('\n');
    const cases = [
      ['application/x-ndjson', ndjson, 'Hello from n8n.'],
      ['text/event-stream', 'data: Hello \n\ndata: over SSE.\n\n', 'Hello over SSE.'],
      ['text/plain; charset=utf-8', 'Just text.', 'Just text.'],
    ] as const;
    for (const [type, body, expected] of cases) {
      const { chatId, messageId, delivery } = await sendAsync(user);
      const empty = await request(t.http)
        .post(`/api/agent-callbacks/${messageId}`)
        .set('Authorization', `Bearer ${delivery.callbackToken}`)
        .set('Content-Type', type)
        .send(type === 'application/x-ndjson' ? '{"type":"end"}' : '   ');
      expect([type, empty.status, empty.body.message]).toEqual([type, 400, CALLBACK_STREAM_EMPTY]);
      await request(t.http)
        .post(`/api/agent-callbacks/${messageId}`)
        .set('Authorization', `Bearer ${delivery.callbackToken}`)
        .set('Content-Type', type)
        .send(body)
        .expect(200);
      expect((await historyOf(user, chatId)).contents).toEqual(['write me a long report', expected]);
    }
  });

  it('a streamed callback reaches the tabs as it arrives (message.delta), then is stored once', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId, delivery } = await sendAsync(user);
    const line = (chunk: object) => `${JSON.stringify(chunk)}\n`;
    const url = new URL(`${t.baseUrl}/api/agent-callbacks/${messageId}`);
    const upload = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${delivery.callbackToken}`,
        'content-type': 'application/x-ndjson',
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      upload.on('error', reject);
    });
    upload.write(line({ type: 'begin', metadata: {} }));
    upload.write(line({ type: 'item', content: 'Part one, ', metadata: {} }));
    // The first piece is on the user's tab while the agent is still sending.
    const delta = await tab.waitFor<{ messageId: string; text: string }>('message.delta');
    expect(delta).toMatchObject({ messageId, chatId, text: 'Part one, ' });
    expect(await replyStatusOf(messageId)).toBe('pending');
    upload.write(line({ type: 'item', content: 'part two.', metadata: {} }));
    upload.end(line({ type: 'end', metadata: {} }));
    expect(await answer).toEqual({ status: 200, body: JSON.stringify({ ok: true }) });
    expect((await historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'Part one, part two.',
    ]);
    const created = tab.events.filter(
      (e) =>
        e.event === 'message.created' &&
        (e.payload as { message: MessageView }).message.senderType === 'agent',
    );
    expect(created).toHaveLength(1);
  });

  it("an n8n error chunk fails the reply at once with the agent's message", async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId, delivery } = await sendAsync(user);
    await request(t.http)
      .post(`/api/agent-callbacks/${messageId}`)
      .set('Authorization', `Bearer ${delivery.callbackToken}`)
      .set('Content-Type', 'application/x-ndjson')
      .send('{"type":"begin"}\n{"type":"error","content":"The report tool crashed"}\n')
      .expect(200);
    const failed = await tab.waitFor<{ messageId: string; reason: string }>('agent.reply_failed');
    expect(failed).toMatchObject({
      messageId,
      reason: 'The agent reported an error: The report tool crashed',
    });
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });
    await callBack(messageId, delivery.callbackToken, { output: 'never mind' }).expect(409);
  });

  it('an error chunk after some text keeps that text, marked as cut short', async () => {
    const user = await registerUser(t);
    const { chatId, messageId, delivery } = await sendAsync(user);
    await request(t.http)
      .post(`/api/agent-callbacks/${messageId}`)
      .set('Authorization', `Bearer ${delivery.callbackToken}`)
      .set('Content-Type', 'application/x-ndjson')
      .send('{"type":"item","content":"Half a report"}\n{"type":"error","content":"tool crashed"}\n')
      .expect(200);
    const res = await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
    const reply = (res.body as { messages: Array<MessageView & { interrupted?: string | null }> })
      .messages[1];
    expect(reply).toMatchObject({ senderType: 'agent', content: 'Half a report', interrupted: 'error' });
    expect(await replyStatusOf(messageId)).toBe('replied');
  });

  /** The token with the expiry it carries moved a day later, its MAC left as it was. */
  const laterExpiry = (token: string) => {
    const bytes = Buffer.from(token, 'base64url');
    bytes.writeUIntBE(bytes.readUIntBE(1, 6) + 24 * 3600 * 1000, 1, 6);
    return bytes.toString('base64url');
  };

  it('refuses a missing or wrong token, a token of another message and a bad body; nothing changes', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId, delivery } = await sendAsync(user);
    const other = await sendAsync(await registerUser(t));
    const refusals = [
      [await callBack(messageId, null, { output: 'forged' }), 401, CALLBACK_TOKEN_REQUIRED],
      [await callBack(messageId, 'not-the-token', { output: 'forged' }), 401, CALLBACK_TOKEN_INVALID],
      [await callBack(messageId, user.accessToken, { output: 'forged' }), 401, CALLBACK_TOKEN_INVALID],
      // A token of message A is refused for message B.
      [await callBack(messageId, other.delivery.callbackToken, { output: 'x' }), 401, CALLBACK_TOKEN_INVALID],
      // The right token with its expiry moved a day on (the MAC kept): refused, not extended.
      [
        await callBack(messageId, laterExpiry(delivery.callbackToken), { output: 'x' }),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      // The right shape for the message, made with another key.
      [
        await callBack(
          messageId,
          mintCallbackToken(
            callbackTokenKey('another secret, as long as a JWT secret is'),
            messageId,
            Date.now() + 600_000,
          ),
          { output: 'x' },
        ),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      // Unknown and malformed ids look exactly like a wrong token: no telling which messages exist.
      [
        await callBack(crypto.randomUUID(), delivery.callbackToken, { output: 'x' }),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      [await callBack('not-a-uuid', delivery.callbackToken, { output: 'x' }), 401, CALLBACK_TOKEN_INVALID],
      [await callBack(messageId, delivery.callbackToken, { reply: 'no output' }), 400, CALLBACK_BODY_INVALID],
      [await callBack(messageId, delivery.callbackToken, [{ output: '   ' }]), 400, CALLBACK_BODY_INVALID],
    ] as const;
    expect(refusals.map(([res]) => [res.status, res.body.message])).toEqual(
      refusals.map(([, status, message]) => [status, message]),
    );
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: true,
    });
    expect(await replyStatusOf(other.messageId)).toBe('pending');
    expect(tab.events.filter((e) => e.event === 'message.created')).toHaveLength(1);
    // The right token still works: the refusals used nothing up.
    await callBack(messageId, delivery.callbackToken, { output: 'the real reply' }).expect(200);
    expect((await historyOf(user, chatId)).contents).toEqual(['write me a long report', 'the real reply']);
  });

  // Parsing up to 1 MB of JSON costs ~100 ms of CPU: no unauthenticated caller may make the app pay it.
  it('checks the token before reading the body: a forged token with 1 MB of broken JSON is a 401, unparsed', async () => {
    const user = await registerUser(t);
    const { chatId, messageId, delivery } = await sendAsync(user);
    const broken = `{"output": "${'x'.repeat(1024 * 1024 - 32)}`;
    const deep = '['.repeat(5000);
    const forgedToken = mintCallbackToken(
      callbackTokenKey('another secret, as long as a JWT secret is'),
      messageId,
      Date.now() + 600_000,
    );
    const post = (token: string | null, body: string) => {
      const req = request(t.http)
        .post(`/api/agent-callbacks/${messageId}`)
        .set('Content-Type', 'application/json');
      if (token !== null) req.set('Authorization', `Bearer ${token}`);
      return req.send(body);
    };
    const parse = jest.spyOn(JSON, 'parse');
    let refusals: Array<[number, string]>;
    try {
      refusals = [];
      for (const [token, body] of [
        [forgedToken, broken],
        [null, broken],
        ['not-a-token', deep],
        [forgedToken, `{"output": "${'y'.repeat(200 * 1024)}"}`],
      ] as const) {
        const res = await post(token, body);
        refusals.push([res.status, (res.body as { message: string }).message]);
      }
      // JSON.parse saw no request body (the responses' own small bodies are parsed by supertest).
      const bodiesParsed = parse.mock.calls.filter(
        ([text]) => typeof text === 'string' && text.length > 10_000,
      );
      expect(bodiesParsed.map(([text]) => (text as string).length)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    expect(refusals).toEqual([
      [401, CALLBACK_TOKEN_INVALID],
      [401, CALLBACK_TOKEN_REQUIRED],
      [401, CALLBACK_TOKEN_INVALID],
      [401, CALLBACK_TOKEN_INVALID],
    ]);
    // With the right token the body is read, and refused as before when it is not JSON or too deep.
    const notJson = await post(delivery.callbackToken, broken);
    expect([notJson.status, notJson.body.message]).toEqual([400, 'The request body is not valid JSON.']);
    const tooDeep = await post(delivery.callbackToken, deep);
    expect([tooDeep.status, tooDeep.body.message]).toEqual([400, TOO_DEEP]);
    const nul = await post(delivery.callbackToken, JSON.stringify({ output: 'a\u0000b' }));
    expect([nul.status, nul.body.message]).toEqual([400, NUL_IN_TEXT]);
    expect(await replyStatusOf(messageId)).toBe('pending');
    await post(delivery.callbackToken, JSON.stringify({ output: 'the real reply' })).expect(200);
    expect((await historyOf(user, chatId)).contents).toEqual(['write me a long report', 'the real reply']);
  });

  // After the deadline the reply has failed: nothing more of it may be accepted or reach a tab.
  it('a streamed callback still open at its deadline is cut: the reply fails, no delta after it, later chunks refused', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId } = await sendAsync(user);
    // The agent's deadline (minutes in real life) is 1.5 s away: its token and its wait say so.
    const deadline = Date.now() + 1500;
    await db.getRepository(AgentCallbackWaitEntity).update(messageId, { expiresAt: new Date(deadline) });
    const upload = http.request(new URL(`${t.baseUrl}/api/agent-callbacks/${messageId}`), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenFor(messageId, deadline)}`,
        'content-type': 'application/x-ndjson',
      },
    });
    let closedAt = 0;
    upload.on('close', () => (closedAt = Date.now()));
    upload.on('error', () => undefined); // writes after the cut fail: expected
    const answer = new Promise<{ status: number; body: string }>((resolve) => {
      upload.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    // An item every 100 ms for up to 6 s (4.5 s past the deadline), while the connection lasts.
    let sent = 0;
    const until = deadline + 4500;
    while (Date.now() < until && !closedAt) {
      upload.write(`${JSON.stringify({ type: 'item', content: `piece ${sent++} ` })}\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!closedAt) upload.end();
    const { status, body } = await answer;
    expect([status, (JSON.parse(body) as { message: string }).message]).toEqual([410, CALLBACK_EXPIRED]);
    // Cut within a moment of the deadline, long before the agent stopped sending.
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt).toBeLessThan(deadline + 4000);
    const failed = await tab.waitFor<{ messageId: string; reason: string }>('agent.reply_failed');
    expect(failed).toMatchObject({
      messageId,
      chatId,
      reason: 'The agent did not deliver its reply within its 10-minute deadline.',
    });
    // The sweep, and a moment for anything late to reach the tab.
    await sweep();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const events = tab.events.map((e) => e.event);
    const failedAt = events.indexOf('agent.reply_failed');
    expect(events.slice(0, failedAt)).toContain('message.delta');
    expect(events.slice(failedAt + 1)).not.toContain('message.delta');
    expect(events.filter((e) => e === 'agent.reply_failed')).toHaveLength(1);
    const deltas = tab.events
      .filter((e) => e.event === 'message.delta')
      .map((e) => (e.payload as { text: string }).text)
      .join('');
    expect(deltas.split('piece').length - 1).toBeLessThan(sent);
    expect(await replyStatusOf(messageId)).toBe('failed');
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });
  }, 20_000);

  it('the sweep leaves an accepted reply alone before its deadline and does not call the agent again', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { messageId } = await sendAsync(user);
    // Far older than the retry budget after which an ordinary pending reply is failed or queued again.
    await dateMessage(t.app, messageId, new Date(Date.now() - 2 * 3600_000));
    await sweep();
    await t.drain();
    expect(await replyStatusOf(messageId)).toBe('pending');
    expect(deliveriesOf(messageId)).toHaveLength(1);
    expect(tab.events.map((e) => e.event)).not.toContain('agent.reply_failed');
  });

  it('late: past the deadline the callback is refused (410), the sweep fails the reply clearly, and it stays failed', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId } = await sendAsync(user);
    // Ten minutes and a second go by: the agent's token (issued then) expired a second ago, and so did
    // the wait the 202 recorded.
    const lateToken = tokenFor(messageId, Date.now() - 1000);
    await db.query(
      `UPDATE agent_callback_waits SET created_at = created_at - interval '601 seconds',
         expires_at = expires_at - interval '601 seconds' WHERE message_id = $1`,
      [messageId],
    );
    const late = await callBack(messageId, lateToken, { output: 'sorry I am late' });
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(CALLBACK_EXPIRED);
    expect(await replyStatusOf(messageId)).toBe('pending');

    await sweep();
    const failed = await tab.waitFor<{ messageId: string; reason: string }>('agent.reply_failed');
    expect(failed).toMatchObject({
      messageId,
      chatId,
      reason: 'The agent did not deliver its reply within its 10-minute deadline.',
    });
    await tab.waitFor<{ typing: boolean }>('agent.typing', (p) => !p.typing);
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });

    await callBack(messageId, lateToken, { output: 'still late' }).expect(410);
    // Even a token that had not expired cannot revive a failed reply.
    const revived = await callBack(messageId, tokenFor(messageId, Date.now() + 3_600_000), {
      output: 'still late',
    });
    expect(revived.status).toBe(409);
    expect(revived.body.message).toBe(CALLBACK_REPLY_FAILED);
    expect(await replyStatusOf(messageId)).toBe('failed');
    expect((await historyOf(user, chatId)).contents).toEqual(['write me a long report']);
  });

  it('Stop ends the wait: the chat takes messages again and a later callback is refused', async () => {
    const user = await registerUser(t);
    const tab = await socketFor(user);
    const { chatId, messageId, delivery } = await sendAsync(user);
    await request(t.http).post(`/api/chats/${chatId}/stop`).set(as(user)).expect(200);
    await tab.waitFor<{ typing: boolean }>('agent.typing', (p) => !p.typing);
    expect(await historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });
    const late = await callBack(messageId, delivery.callbackToken, { output: 'too late, stopped' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(CALLBACK_REPLY_STOPPED);
    expect((await historyOf(user, chatId)).contents).toEqual(['write me a long report']);
  });

  it('a callback for a message whose chat was deleted is a 404', async () => {
    const user = await registerUser(t);
    const { chatId, messageId, delivery } = await sendAsync(user);
    await request(t.http).delete(`/api/chats/${chatId}`).set(as(user)).expect(204);
    const gone = await callBack(messageId, delivery.callbackToken, { output: 'for nobody' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(CALLBACK_MESSAGE_GONE);
  });

  it('a retried delivery carries a new token; either token delivers, once', async () => {
    const user = await registerUser(t);
    const { chatId, messageId, deliveries } = await sendAsync(user, '/flaky-async');
    expect(deliveries).toHaveLength(2);
    const [first, second] = deliveries;
    expect(first.callbackToken).not.toBe(second.callbackToken);
    expect(await replyStatusOf(messageId)).toBe('pending');
    // An agent that deduplicated on webhook-id answers with the first delivery's token.
    await callBack(messageId, first.callbackToken, { output: 'from the first delivery' }).expect(200);
    const again = await callBack(messageId, second.callbackToken, { output: 'from the second' });
    expect(again.status).toBe(409);
    expect((await historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'from the first delivery',
    ]);
  }, 20_000);

  it("uses the agent's own deadline: 1 to 60 minutes, 10 by default, readable refusals otherwise", async () => {
    const user = await registerUser(t);
    for (const bad of [0, 61, 2.5, 'ten', null]) {
      const res = await request(t.http)
        .post('/api/agents')
        .set(as(user))
        .send({ name: 'Slow agent', webhook: `${hook.url}/async`, callbackDeadlineMinutes: bad });
      expect([bad, res.status]).toEqual([bad, 400]);
      if (bad !== null) expect(res.body.message).toBe(REPLY_DEADLINE_RULE);
    }
    const plain = await createAgent(user, '/async');
    expect(plain.callbackDeadlineMinutes).toBe(10);
    const slow = await createAgent(user, '/async', { callbackDeadlineMinutes: 30 });
    expect(slow.callbackDeadlineMinutes).toBe(30);
    const patched = await request(t.http)
      .patch(`/api/agents/${slow.id}`)
      .set(as(user))
      .send({ callbackDeadlineMinutes: 45 })
      .expect(200);
    expect(patched.body.callbackDeadlineMinutes).toBe(45);
    await request(t.http)
      .patch(`/api/agents/${slow.id}`)
      .set(as(user))
      .send({ callbackDeadlineMinutes: 90 })
      .expect(400);

    const res = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: slow.id, content: 'take your time' })
      .expect(201);
    await t.drain();
    const messageId = (res.body as { message: MessageView }).message.id;
    const [delivery] = deliveriesOf(messageId);
    const expiresAt = verifyCallbackToken(
      callbackTokenKey(t.config.jwtSecret),
      messageId,
      delivery.callbackToken,
    );
    expect(Math.round(((expiresAt as number) - Date.now()) / 60_000)).toBe(45);
    const [wait] = await waitsOf(messageId);
    expect([wait.deadline_minutes, wait.minutes]).toEqual([45, 45]);
  });

  it('the ordinary path writes nothing for callbacks: a token goes with the call, no row is stored', async () => {
    const user = await registerUser(t);
    const waitsBefore = await countWaits();
    const agent = await createAgent(user, '/sync');
    const res = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: agent.id, content: 'a quick question' })
      .expect(201);
    await t.drain();
    const { chat, message } = res.body as { chat: ChatView; message: MessageView };
    expect((await historyOf(user, chat.id)).contents).toEqual(['a quick question', 'right away']);
    const [delivery] = deliveriesOf(message.id);
    expect(delivery.callbackToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await waitsOf(message.id)).toEqual([]);
    expect(await countWaits()).toBe(waitsBefore);
    // Its token is good for nothing now: the message has its reply.
    const replay = await callBack(message.id, delivery.callbackToken, { output: 'me too' });
    expect([replay.status, replay.body.message]).toEqual([409, CALLBACK_ALREADY_USED]);
    expect((await historyOf(user, chat.id)).contents).toEqual(['a quick question', 'right away']);
  });
});
