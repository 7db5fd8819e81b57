import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../../test/app.test-util';
import {
  connectSocket,
  type EventLog,
  startFakeWebhook,
  type FakeWebhook,
} from '../../../test/realtime.test-util';
import type { ClientEventMap } from '../../contracts/realtime-events';
import type { MessageView } from '../../realtime/client-events';

type Delta = ClientEventMap['message.delta'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes the pieces slowly (each its own chunk), then ends, unless the client went away. */
async function dribble(res: ServerResponse, pieces: string[]): Promise<void> {
  for (const piece of pieces) {
    if (res.destroyed) return;
    res.write(piece);
    await sleep(30);
  }
  res.end();
}

const NDJSON = ['alpha ', 'beta ', 'gamma ✓'];

/** The local agent: streams in each format, stalls, or holds mid-stream until the test lets it go. */
function streamingBehaviours(gates: { release: () => void; held: Promise<void>; aborted: boolean[] }) {
  const hold = (first: string | null) => (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write('{"type":"begin","metadata":{}}\n');
    if (first !== null) res.write(`${JSON.stringify({ type: 'item', content: first })}\n`);
    res.on('close', () => {
      if (!res.writableEnded) gates.aborted.push(true);
    });
    void gates.held.then(() =>
      dribble(res, [`${JSON.stringify({ type: 'item', content: 'the rest' })}\n`, '{"type":"end"}\n']),
    );
    req.resume();
  };
  return {
    // n8n answers as JSON: the stream is known by its first line.
    '/ndjson': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      void dribble(res, [
        '{"type":"begin","metadata":{"nodeName":"Agent"}}\n',
        ...NDJSON.map((content) => `${JSON.stringify({ type: 'item', content, metadata: {} })}\n`),
        '{"type":"end","metadata":{}}\n',
      ]);
    },
    '/sse': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void dribble(res, [...NDJSON.map((t) => `data: ${t}\n\n`), 'data: [DONE]\n\n']);
    },
    '/text': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      void dribble(res, NDJSON);
    },
    '/stall': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"type":"item","content":"so far"}\n');
    },
    '/error-chunk': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      void dribble(res, [
        '{"type":"item","content":"half"}\n',
        '{"type":"error","content":"Model overloaded"}\n',
      ]);
    },
    // What a real n8n 2.41 streaming workflow sent (two Respond to Webhook nodes), line by line.
    '/n8n-recorded': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const body = readFileSync(join(__dirname, '../../../test/fixtures/n8n/stream.body'), 'utf8');
      void dribble(res, body.split(/(?<=\n)/));
    },
    // An n8n AI Agent: tokens, with a tool call between them.
    '/n8n-agent': (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const meta = { nodeId: 'agent', nodeName: 'AI Agent', itemIndex: 0, runIndex: 0, timestamp: 1 };
      const line = (type: string, content?: string) =>
        `${JSON.stringify({ type, content, metadata: meta })}\n`;
      const tool = JSON.stringify({ toolCallId: 'c1', toolName: 'Calculator' });
      void dribble(res, [
        line('begin'),
        line('item', 'Counting. '),
        line('tool-call-start', tool),
        line('tool-call-end', tool),
        line('item', 'It is 42.'),
        line('end'),
      ]);
    },
    '/hold': hold('partial '),
    '/hold-empty': hold(null),
  };
}

describe('streamed replies', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  let user: RegisteredUser;
  let headers: Record<string, string>;
  const gates = { release: () => undefined as void, held: Promise.resolve(), aborted: [] as boolean[] };
  const resetGate = () => {
    gates.held = new Promise<void>((resolve) => (gates.release = resolve));
    gates.aborted = [];
  };

  beforeAll(async () => {
    resetGate();
    hook = await startFakeWebhook(streamingBehaviours(gates));
    t = await createTestApp({
      REDIS_URL: '',
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    user = await registerUser(t);
    headers = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
  }, 60_000);

  afterAll(async () => {
    gates.release();
    await t?.close();
    await hook?.close();
  });

  async function chatWith(path: string): Promise<{ agentId: string }> {
    const agent = await request(t.http)
      .post('/api/agents')
      .set(headers)
      .send({ name: `Streamer ${path}`, webhook: `${hook.url}${path}` })
      .expect(201);
    return { agentId: agent.body.id as string };
  }

  async function send(agentId: string, content: string) {
    const sent = await request(t.http)
      .post('/api/messages')
      .set(headers)
      .send({ agentId, content })
      .expect(201);
    return { chatId: sent.body.chat.id as string, messageId: sent.body.message.id as string };
  }

  const deltasOf = (tab: EventLog, messageId: string) =>
    tab.events
      .filter((e) => e.event === 'message.delta')
      .map((e) => e.payload as Delta)
      .filter((d) => d.messageId === messageId);

  const agentReply = (tab: EventLog, chatId: string) =>
    tab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.senderType === 'agent' && p.message.chatId === chatId,
    );

  it.each(['/ndjson', '/sse', '/text'])(
    '%s: deltas reach every tab in order, and the stored reply is the chunks put together',
    async (path) => {
      const tabs = [
        await connectSocket(t.baseUrl, user.accessToken),
        await connectSocket(t.baseUrl, user.accessToken),
      ];
      try {
        const { agentId } = await chatWith(path);
        const { chatId, messageId } = await send(agentId, `stream ${path}`);
        const replies = await Promise.all(tabs.map((tab) => agentReply(tab, chatId)));
        const expected = NDJSON.join('');
        for (const [i, tab] of tabs.entries()) {
          expect(replies[i].message.content).toBe(expected);
          expect(replies[i].message.interrupted).toBeNull();
          const deltas = deltasOf(tab, messageId);
          expect(deltas.length).toBeGreaterThan(0);
          // In order: each piece starts where the text before it ended.
          let offset = 0;
          for (const delta of deltas) {
            expect(delta).toMatchObject({ chatId, companyId: user.companyId, offset });
            offset += delta.text.length;
          }
          expect(deltas.map((d) => d.text).join('')).toBe(expected);
          // Every delta came before the stored reply.
          const created = tab.events.findIndex(
            (e) =>
              e.event === 'message.created' &&
              (e.payload as { message: MessageView }).message.senderType === 'agent',
          );
          expect(tab.events.findLastIndex((e) => e.event === 'message.delta')).toBeLessThan(created);
        }
        const page = await request(t.http).get(`/api/chats/${chatId}/messages`).set(headers).expect(200);
        expect(page.body.messages.map((m: MessageView) => m.content)).toEqual([`stream ${path}`, expected]);
        expect(page.body.pendingReply).toBe(false);
        expect(page.body.streamingReply).toBeNull();
      } finally {
        for (const tab of tabs) tab.close();
      }
    },
    20_000,
  );

  it('a real n8n stream shows each node as its paragraph, its {"output"} item as text', async () => {
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const { agentId } = await chatWith('/n8n-recorded');
      const { chatId, messageId } = await send(agentId, 'Hello there');
      const reply = await agentReply(tab, chatId);
      expect(reply.message.content).toBe('n8n streamed: Hello there\n\nsecond chunk');
      expect(deltasOf(tab, messageId).map((d) => d.text)).toEqual([
        'n8n streamed: Hello there',
        '\n\nsecond chunk',
      ]);
    } finally {
      tab.close();
    }
  }, 20_000);

  it("an AI Agent's tool call reaches the user's tabs as agent.activity, not as text, and no one else's", async () => {
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    const stranger = await connectSocket(t.baseUrl, (await registerUser(t)).accessToken);
    try {
      const { agentId } = await chatWith('/n8n-agent');
      const { chatId, messageId } = await send(agentId, 'count');
      const reply = await agentReply(tab, chatId);
      expect(reply.message.content).toBe('Counting. It is 42.');
      const activity = tab.events.filter((e) => e.event === 'agent.activity').map((e) => e.payload);
      expect(activity).toEqual([
        { companyId: user.companyId, chatId, messageId, tool: 'Calculator' },
        { companyId: user.companyId, chatId, messageId, tool: null },
      ]);
      expect(
        stranger.events.filter((e) => e.event.startsWith('agent.') || e.event.startsWith('message.')),
      ).toEqual([]);
    } finally {
      tab.close();
      stranger.close();
    }
  }, 20_000);

  it('a stall mid-stream (idle timeout) keeps the text so far, marked timeout, and is not asked again', async () => {
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const { agentId } = await chatWith('/stall');
      const { chatId } = await send(agentId, 'stall please');
      const reply = await agentReply(tab, chatId);
      expect(reply.message).toMatchObject({ content: 'so far', interrupted: 'timeout' });
      expect(hook.requests.filter((r) => r.path === '/stall')).toHaveLength(1);
    } finally {
      tab.close();
    }
  }, 20_000);

  it("an error chunk after some text keeps it, marked error, with the agent's message", async () => {
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const { agentId } = await chatWith('/error-chunk');
      const { chatId } = await send(agentId, 'fail midway');
      const reply = await agentReply(tab, chatId);
      expect(reply.message).toMatchObject({
        content: 'half',
        interrupted: 'error',
        interruptedReason: 'Model overloaded',
      });
    } finally {
      tab.close();
    }
  }, 20_000);

  it('a tab opened mid-stream reads the text so far with the messages, then the rest comes', async () => {
    resetGate();
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const { agentId } = await chatWith('/hold');
      const { chatId, messageId } = await send(agentId, 'hold on');
      await tab.waitFor<Delta>('message.delta', (d) => d.messageId === messageId);
      const page = await request(t.http).get(`/api/chats/${chatId}/messages`).set(headers).expect(200);
      expect(page.body.pendingReply).toBe(true);
      expect(page.body.streamingReply).toEqual({ messageId, text: 'partial ' });
      gates.release();
      const reply = await agentReply(tab, chatId);
      expect(reply.message.content).toBe('partial the rest');
    } finally {
      tab.close();
    }
  }, 20_000);

  it('Stop aborts the webhook call and stores the text so far, marked stopped; a second Stop has nothing to stop', async () => {
    resetGate();
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const { agentId } = await chatWith('/hold');
      const { chatId, messageId } = await send(agentId, 'stop me');
      await tab.waitFor<Delta>('message.delta', (d) => d.messageId === messageId);
      const stop = await request(t.http).post(`/api/chats/${chatId}/stop`).set(headers).expect(200);
      expect(stop.body).toEqual({ stopped: true });
      const reply = await agentReply(tab, chatId);
      expect(reply.message).toMatchObject({ content: 'partial ', interrupted: 'stopped' });
      await tab.waitFor(
        'agent.typing',
        (p: { chatId: string; typing: boolean }) => p.chatId === chatId && !p.typing,
      );
      // The agent's connection was closed by us, before it could send the rest.
      for (let i = 0; i < 50 && gates.aborted.length === 0; i++) await sleep(20);
      expect(gates.aborted).toEqual([true]);
      gates.release();
      await t.drain();
      const page = await request(t.http).get(`/api/chats/${chatId}/messages`).set(headers).expect(200);
      expect(page.body.messages.map((m: MessageView) => m.content)).toEqual(['stop me', 'partial ']);
      const again = await request(t.http).post(`/api/chats/${chatId}/stop`).set(headers).expect(200);
      expect(again.body).toEqual({ stopped: false });
    } finally {
      tab.close();
    }
  }, 20_000);

  it('Stop before any text stores nothing, clears typing, and the chat takes a message again', async () => {
    resetGate();
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const { agentId } = await chatWith('/hold-empty');
      const { chatId } = await send(agentId, 'never mind');
      for (let i = 0; i < 100 && !hook.requests.some((r) => r.body.includes('never mind')); i++)
        await sleep(20);
      await request(t.http).post(`/api/chats/${chatId}/stop`).set(headers).expect(200, { stopped: true });
      await tab.waitFor(
        'agent.typing',
        (p: { chatId: string; typing: boolean }) => p.chatId === chatId && !p.typing,
      );
      gates.release();
      await t.drain();
      const page = await request(t.http).get(`/api/chats/${chatId}/messages`).set(headers).expect(200);
      expect(page.body.messages.map((m: MessageView) => m.senderType)).toEqual(['user']);
      expect(page.body.pendingReply).toBe(false);
      await request(t.http)
        .post(`/api/chats/${chatId}/messages`)
        .set(headers)
        .send({ content: 'next' })
        .expect(201);
    } finally {
      tab.close();
    }
  }, 20_000);

  it('Stop of a chat that is not the caller’s is a 404', async () => {
    const other = await registerUser(t);
    const { agentId } = await chatWith('/ndjson');
    const { chatId } = await send(agentId, 'mine');
    await request(t.http)
      .post(`/api/chats/${chatId}/stop`)
      .set({ Authorization: `Bearer ${other.accessToken}`, 'X-Company-Id': other.companyId })
      .expect(404);
    await request(t.http).post('/api/chats/not-a-uuid/stop').set(headers).expect(404);
    await t.drain();
  });
});

const redisUrl = process.env.REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('streamed replies across two api nodes (Redis)', () => {
  const prefix = `sbstream${process.pid}${Date.now()}`;
  let a: TestApp;
  let b: TestApp;
  let hook: FakeWebhook;
  let user: RegisteredUser;
  let headers: Record<string, string>;
  const gates = { release: () => undefined as void, held: Promise.resolve(), aborted: [] as boolean[] };

  beforeAll(async () => {
    gates.held = new Promise<void>((resolve) => (gates.release = resolve));
    hook = await startFakeWebhook(streamingBehaviours(gates));
    const env = {
      REDIS_URL: redisUrl,
      BULLMQ_PREFIX: prefix,
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '2000',
      JWT_SECRET: 'stream-test-secret-that-is-long-enough-000',
    };
    // Jobs run on a only: what b shows and stops reaches it through Redis (adapter, key, pub/sub).
    a = await createTestApp(env);
    b = await createTestApp({ ...env, PROCESS_ROLE: 'api' });
    user = await registerUser(a);
    headers = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
  }, 60_000);

  afterAll(async () => {
    gates.release();
    await a?.close();
    await b?.close();
    await hook?.close();
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('deltas reach tabs on both nodes in order; a tab on the other node reads the text so far; Stop there aborts the call', async () => {
    const tabs = [
      await connectSocket(a.baseUrl, user.accessToken),
      await connectSocket(b.baseUrl, user.accessToken),
    ];
    try {
      const agent = await request(a.http)
        .post('/api/agents')
        .set(headers)
        .send({ name: 'Streamer', webhook: `${hook.url}/ndjson` })
        .expect(201);
      const sent = await request(a.http)
        .post('/api/messages')
        .set(headers)
        .send({ agentId: agent.body.id, content: 'two nodes' })
        .expect(201);
      const chatId = sent.body.chat.id as string;
      const messageId = sent.body.message.id as string;
      for (const tab of tabs) {
        const reply = await tab.waitFor<{ message: MessageView }>(
          'message.created',
          (p) => p.message.senderType === 'agent',
          15_000,
        );
        expect(reply.message.content).toBe(NDJSON.join(''));
        const deltas = tab.events.filter((e) => e.event === 'message.delta').map((e) => e.payload as Delta);
        expect(
          deltas
            .filter((d) => d.messageId === messageId)
            .map((d) => d.text)
            .join(''),
        ).toBe(NDJSON.join(''));
        expect(deltas.map((d) => d.offset)).toEqual([...deltas.map((d) => d.offset)].sort((x, y) => x - y));
      }

      // Held mid-stream: node b reads the text so far from Redis, and its Stop reaches the job on node a.
      await request(a.http)
        .patch(`/api/agents/${agent.body.id}`)
        .set(headers)
        .send({ webhook: `${hook.url}/hold` })
        .expect(200);
      const held = await request(a.http)
        .post(`/api/chats/${chatId}/messages`)
        .set(headers)
        .send({ content: 'hold' })
        .expect(201);
      await tabs[1].waitFor<Delta>('message.delta', (d) => d.messageId === held.body.id, 15_000);
      const page = await request(b.http).get(`/api/chats/${chatId}/messages`).set(headers).expect(200);
      expect(page.body.streamingReply).toEqual({ messageId: held.body.id, text: 'partial ' });
      await request(b.http).post(`/api/chats/${chatId}/stop`).set(headers).expect(200, { stopped: true });
      const stopped = await tabs[0].waitFor<{ message: MessageView }>(
        'message.created',
        (p) => p.message.senderType === 'agent' && p.message.content === 'partial ',
        15_000,
      );
      expect(stopped.message.interrupted).toBe('stopped');
      for (let i = 0; i < 100 && gates.aborted.length === 0; i++) await sleep(20);
      expect(gates.aborted).toEqual([true]);
    } finally {
      for (const tab of tabs) tab.close();
    }
  }, 40_000);
});
