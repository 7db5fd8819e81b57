import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../../test/app.test-util';
import { as } from '../../../test/auth';
import {
  connectSocket,
  type EventLog,
  type FakeWebhook,
  startFakeWebhook,
} from '../../../test/realtime.test-util';
import type { ChatView, MessageView } from '../../realtime/client-events';
import { signWebhook } from '../../webhooks/webhook-client';
import { JobQueue } from '../../queue/job-queue';
import { CHAT_ARCHIVED, MESSAGE_NOT_FOUND } from '../chats.service';
import { ONLY_AGENT_REPLIES_RATED } from './reply-feedback.service';

/** An agent that answers messages and takes feedback events (204), recording both. */
function ratedAgent(req: IncomingMessage, res: ServerResponse, body: string): void {
  const parsed = JSON.parse(body) as { event?: string; message?: string };
  if (parsed.event === 'feedback') {
    res.writeHead(204);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify([{ output: `rated agent heard: ${parsed.message}` }]));
}

describe('rating replies (thumbs up and down, feedback events)', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  const sockets: EventLog[] = [];

  beforeAll(async () => {
    hook = await startFakeWebhook({ '/rated': ratedAgent, '/quiet': ratedAgent });
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '2000' });
  });
  afterEach(() => {
    while (sockets.length) sockets.pop()?.close();
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  const socketFor = async (user: RegisteredUser) => {
    const s = await connectSocket(t.baseUrl, user.accessToken);
    sockets.push(s);
    return s;
  };

  /** A chat with an agent at `path` holding one answered message; the reply's id. */
  async function answeredChat(user: RegisteredUser, path: string, agent: Record<string, unknown> = {}) {
    const tab = await socketFor(user);
    const created = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: `Agent ${path}`, webhook: `${hook.url}${path}`, ...agent })
      .expect(201);
    const sent = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: created.body.id, content: 'rate me' })
      .expect(201);
    const chat = sent.body.chat as ChatView;
    const reply = await tab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.chatId === chat.id && p.message.senderType === 'agent',
    );
    return {
      chat,
      userMessageId: (sent.body.message as MessageView).id,
      replyId: reply.message.id,
      secret: created.body.signingSecret as string | undefined,
    };
  }

  const rate = (user: RegisteredUser, id: string, body: object) =>
    request(t.http).put(`/api/messages/${id}/feedback`).set(as(user)).send(body);

  const feedbackEvents = (replyId: string) =>
    hook.requests.filter((r) => r.body.includes('"event":"feedback"') && r.body.includes(replyId));

  it('thumbs down with a reason: stored, pushed to the other tabs, sent signed to the opted-in agent', async () => {
    const user = await registerUser(t);
    const { chat, userMessageId, replyId, secret } = await answeredChat(user, '/rated', {
      signed: true,
      sendFeedback: true,
    });
    const otherTab = await socketFor(user);

    const rated = await rate(user, replyId, { score: 'dislike', reason: '  Wrong answer  ' }).expect(200);
    expect(rated.body).toMatchObject({ id: replyId, feedback: 'dislike', feedbackReason: 'Wrong answer' });
    const pushed = await otherTab.waitFor<{ message: MessageView }>(
      'message.updated',
      (p) => p.message.id === replyId,
    );
    expect(pushed.message).toMatchObject({ feedback: 'dislike', feedbackReason: 'Wrong answer' });

    await t.app.get(JobQueue).drain();
    const [event] = feedbackEvents(replyId);
    expect(JSON.parse(event.body)).toEqual({
      event: 'feedback',
      replyId,
      messageId: userMessageId,
      score: 'dislike',
      reason: 'Wrong answer',
      sessionId: chat.id,
      chatId: chat.id,
      agentId: chat.agentId,
      userId: user.userId,
      companyId: user.companyId,
      isVoiceMessage: false,
      ratedAt: expect.any(String),
    });
    const id = event.headers['webhook-id'] as string;
    const ts = Number(event.headers['webhook-timestamp']);
    expect(event.headers['webhook-signature']).toBe(signWebhook(secret!, id, ts, event.body));

    // The page shows it too; a like replaces it (the reason goes), null takes it back.
    const page = await request(t.http).get(`/api/chats/${chat.id}/messages`).set(as(user)).expect(200);
    expect(page.body.messages[1]).toMatchObject({ feedback: 'dislike', feedbackReason: 'Wrong answer' });
    expect((await rate(user, replyId, { score: 'like', reason: 'ignored' }).expect(200)).body).toMatchObject({
      feedback: 'like',
      feedbackReason: null,
    });
    expect((await rate(user, replyId, { score: null }).expect(200)).body.feedback).toBeNull();
    await t.app.get(JobQueue).drain();
    expect(feedbackEvents(replyId).map((r) => (JSON.parse(r.body) as { score: unknown }).score)).toEqual([
      'dislike',
      'like',
      null,
    ]);
    // Each delivery its own webhook-id.
    expect(new Set(feedbackEvents(replyId).map((r) => r.headers['webhook-id'])).size).toBe(3);
  });

  it('an agent that did not opt in is not told', async () => {
    const user = await registerUser(t);
    const { replyId } = await answeredChat(user, '/quiet');
    await rate(user, replyId, { score: 'like' }).expect(200);
    await t.app.get(JobQueue).drain();
    expect(feedbackEvents(replyId)).toEqual([]);
  });

  it('refusals: bad input, a user message, another user, an archived chat', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    const { chat, userMessageId, replyId } = await answeredChat(user, '/quiet');

    const bad = async (body: object, message: string | RegExp) => {
      const res = await rate(user, replyId, body).expect(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    };
    await bad({ score: 'meh' }, /score must be like, dislike or null/);
    await bad({}, /score must be like, dislike or null/);
    await bad({ score: 'dislike', reason: 'x'.repeat(501) }, /reason must be at most 500 characters/);
    await bad({ score: 'dislike', reason: 42 }, /reason must be text/);

    expect((await rate(user, userMessageId, { score: 'like' }).expect(400)).body.message).toBe(
      ONLY_AGENT_REPLIES_RATED,
    );
    expect((await rate(user, 'not-a-uuid', { score: 'like' }).expect(404)).body.message).toBe(
      MESSAGE_NOT_FOUND,
    );
    // Another user (of another company, and in their own company) does not see the reply.
    expect((await rate(other, replyId, { score: 'like' }).expect(404)).body.message).toBe(MESSAGE_NOT_FOUND);

    await request(t.http).patch(`/api/chats/${chat.id}`).set(as(user)).send({ isArchived: true }).expect(200);
    expect((await rate(user, replyId, { score: 'like' }).expect(400)).body.message).toBe(CHAT_ARCHIVED);
    const page = await request(t.http).get(`/api/chats/${chat.id}/messages`).set(as(user)).expect(200);
    expect(page.body.messages[1].feedback).toBeNull();
  });

  it('the agent setting is saved and shown (off by default)', async () => {
    const user = await registerUser(t);
    const created = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: 'Opt-in', webhook: `${hook.url}/quiet` })
      .expect(201);
    expect(created.body.sendFeedback).toBe(false);
    const updated = await request(t.http)
      .patch(`/api/agents/${created.body.id}`)
      .set(as(user))
      .send({ sendFeedback: true })
      .expect(200);
    expect(updated.body.sendFeedback).toBe(true);
    const bad = await request(t.http)
      .patch(`/api/agents/${created.body.id}`)
      .set(as(user))
      .send({ sendFeedback: 'yes' })
      .expect(400);
    expect(JSON.stringify(bad.body)).toMatch(/sendFeedback must be true or false/);
  });
});
