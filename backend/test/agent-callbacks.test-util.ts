import request from 'supertest';
import { DataSource } from 'typeorm';
import { AgentCallbackWaitEntity } from '../src/agent-callbacks/agent-callback-wait.entity';
import { AgentCallbackTokensService } from '../src/agent-callbacks/agent-callback-tokens.service';
import { MessageEntity } from '../src/chats/message.entity';
import { StaleReplySweeper } from '../src/chats/jobs/stale-reply.sweeper';
import type { ChatView, MessageView } from '../src/realtime/client-events';
import { createTestApp, type RegisteredUser, type TestApp } from './app.test-util';
import { as } from './auth';
import { startFakeWebhook, type FakeWebhook, useSockets } from './realtime.test-util';

/** What a long-running agent receives in the webhook body. */
export interface AsyncDelivery {
  message: string;
  messageId: string;
  callbackUrl: string;
  callbackToken: string;
}

/**
 * The long-running agent suites' app: a fake webhook with an agent that answers 202 (`/async`), one that
 * answers at once (`/sync`) and one whose first delivery of each message fails (`/flaky-async`), the
 * app allowed to call it, and the helpers the suites drive it with. Sockets opened by a test close
 * after it.
 */
export function useCallbackApp() {
  let t: TestApp;
  let hook: FakeWebhook;
  const openSocket = useSockets();
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
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const db = () => t.app.get(DataSource);
  const socketFor = (user: RegisteredUser) => openSocket(t.baseUrl, user.accessToken);
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
    (await db().getRepository(MessageEntity).findOneBy({ id: messageId }))?.replyStatus;
  const sweep = () => t.app.get(StaleReplySweeper).sweepStaleReplies();
  const waitsOf = async (messageId: string) =>
    (await db().query(
      `SELECT expires_at, deadline_minutes,
         round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes
       FROM agent_callback_waits WHERE message_id = $1`,
      [messageId],
    )) as Array<{ expires_at: Date; deadline_minutes: number; minutes: number }>;
  const countWaits = () => db().getRepository(AgentCallbackWaitEntity).count();
  /** A token of the message as the server mints them, expiring at `expiresAtMs` (Unix ms). */
  const tokenFor = (messageId: string, expiresAtMs: number) =>
    t.app.get(AgentCallbackTokensService).grant(messageId, expiresAtMs).callbackToken;

  return {
    get t() {
      return t;
    },
    get hook() {
      return hook;
    },
    get db() {
      return db();
    },
    socketFor,
    createAgent,
    deliveriesOf,
    sendAsync,
    callBack,
    historyOf,
    replyStatusOf,
    sweep,
    waitsOf,
    countWaits,
    tokenFor,
  };
}
