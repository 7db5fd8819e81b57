import { createServer } from 'node:net';
import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { joinAsNewMember } from '../../test/invitations.test-util';
import {
  connectSocket,
  type EventLog,
  type FakeWebhook,
  startFakeWebhook,
} from '../../test/realtime.test-util';
import { ChatsService } from '../chats/chats.service';
import { MessagesRepository } from '../chats/messages.repository';
import type { ChatView, MessageView } from '../contracts/chats';
import type { BulkReplayResult, DeliveryDetail, DeliveryPage, DeliveryView } from '../contracts/deliveries';
import { Database } from '../database/database';
import { REDACTED } from './redact';
import { DeliveriesPruner } from './deliveries-pruner';
import { DeliveriesRepository } from './deliveries.repository';
import {
  ALREADY_REPLAYED,
  CHAT_GONE,
  NOT_FAILED,
  SINCE_IN_FUTURE,
  WRITTEN_SINCE,
} from './deliveries.service';

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The delivery log, recorded by the real message path (send → job → local webhook → reply or failure),
 * and its API: bodies redacted and kept for the retention, paging and filters, Replay (one, bulk, the
 * refusals, two at once), roles and tenancy.
 */
describe('Delivery log (recording, retention, replay)', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  let owner: RegisteredUser;
  let tab: EventLog;
  let deadPort: number;
  const sockets: EventLog[] = [];

  beforeAll(async () => {
    hook = await startFakeWebhook({
      '/stream': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify({ type: 'item', content: 'streamed ' })}\n`);
        res.end(`${JSON.stringify({ type: 'item', content: 'answer' })}\n{"type":"end"}\n`);
      },
      '/stream-error': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.end(`${JSON.stringify({ type: 'error', content: 'the flow broke' })}\n`);
      },
      '/async': (_req, res) => {
        res.writeHead(202);
        res.end();
      },
      '/secret-answer': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ output: 'fine', apiKey: 'sk-live-123' }]));
      },
    });
    deadPort = await closedPort();
    t = await createTestApp({
      WEBHOOK_ALLOWED_HOSTS: `${hook.hostPort},127.0.0.1:${deadPort}`,
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    owner = await registerUser(t);
    tab = await connectSocket(t.baseUrl, owner.accessToken);
    sockets.push(tab);
  });
  afterAll(async () => {
    while (sockets.length) sockets.pop()?.close();
    await t?.close();
    await hook?.close();
  });

  const db = () => t.app.get(Database);
  const list = (user: RegisteredUser, query: Record<string, string> = {}, companyId = user.companyId) =>
    request(t.http).get('/api/company/deliveries').query(query).set(as(user, companyId));
  const detail = (user: RegisteredUser, id: string, companyId = user.companyId) =>
    request(t.http).get(`/api/company/deliveries/${id}`).set(as(user, companyId));
  const replay = (user: RegisteredUser, id: string, companyId = user.companyId) =>
    request(t.http).post(`/api/company/deliveries/${id}/replay`).set(as(user, companyId));

  async function agentAt(user: RegisteredUser, name: string, webhook: string, signed = false) {
    const res = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name, webhook, signed })
      .expect(201);
    return res.body.id as string;
  }

  /** A message in a new chat, its reply job run to its end (every attempt). */
  async function send(user: RegisteredUser, agentId: string, content = 'hello') {
    const sent = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId, content })
      .expect(201);
    await t.drain();
    return { chat: sent.body.chat as ChatView, message: sent.body.message as MessageView };
  }

  async function deliveryOf(messageId: string, round = 0): Promise<DeliveryDetail> {
    const [row] = await db().query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE message_id = $1 AND round = $2`,
      [messageId, round],
    );
    expect(row).toBeDefined();
    return (await detail(owner, row.id).expect(200)).body as DeliveryDetail;
  }

  it('records every webhook call once per delivery, with each outcome kind', async () => {
    const cases: Array<[string, string, Partial<DeliveryView>]> = [
      ['/ok', 'delivered', { httpStatus: 200, attempts: 1 }],
      ['/stream', 'delivered', { httpStatus: 200, attempts: 1 }],
      ['/400', 'http_status', { httpStatus: 400, attempts: 1 }],
      ['/500', 'http_status', { httpStatus: 500, attempts: 3 }],
      ['/malformed', 'malformed', { httpStatus: 200 }],
      ['/stream-error', 'agent_error', { httpStatus: 200 }],
      ['/slow', 'timeout', { httpStatus: null, attempts: 3 }],
    ];
    for (const [path, outcome, more] of cases) {
      const agent = await agentAt(owner, `Agent ${path}`, `${hook.url}${path}`);
      const { message, chat } = await send(owner, agent);
      const delivery = await deliveryOf(message.id);
      expect({ path, ...delivery }).toMatchObject({
        path,
        outcome,
        agentId: agent,
        chatId: chat.id,
        messageId: message.id,
        round: 0,
        requestId: message.id,
        replayOf: null,
        bodiesKept: true,
        ...more,
      });
      expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
      if (outcome === 'delivered') expect(delivery.replyId).toEqual(expect.any(String));
      else if (outcome !== 'malformed') expect(delivery.error).toEqual(expect.any(String));
    }
    const streamed = (await list(owner, { outcome: 'delivered' }).expect(200)).body as DeliveryPage;
    const answers = await Promise.all(streamed.deliveries.map((d) => deliveryOf(d.messageId)));
    expect(answers.map((a) => a.responseBody)).toContain('streamed answer');

    // Unreachable (nothing listens): network; moved to a private address: refused by the guard.
    const dead = await agentAt(owner, 'Dead', `http://127.0.0.1:${deadPort}/hook`);
    expect((await deliveryOf((await send(owner, dead)).message.id)).outcome).toBe('network');
    const guarded = await agentAt(owner, 'Guarded', `${hook.url}/ok`);
    await db().query(`UPDATE agents SET webhook = 'http://10.0.0.1/hook' WHERE id = $1`, [guarded]);
    expect((await deliveryOf((await send(owner, guarded)).message.id)).outcome).toBe('ssrf_refused');
  }, 60_000);

  it('writes a stored reply’s row in the statement that stores the reply, a failure’s on its own', async () => {
    const record = jest.spyOn(t.app.get(DeliveriesRepository), 'record');
    try {
      const ok = await send(owner, await agentAt(owner, 'One statement', `${hook.url}/ok`));
      expect(record).not.toHaveBeenCalled();
      expect(await deliveryOf(ok.message.id)).toMatchObject({
        outcome: 'delivered',
        replyId: expect.any(String),
      });
      await send(owner, await agentAt(owner, 'Own statement', `${hook.url}/400`));
      expect(record).toHaveBeenCalledTimes(1);
    } finally {
      record.mockRestore();
    }
  });

  it('follows a 202 to its callback, or to the deadline', async () => {
    const agent = await agentAt(owner, 'Async', `${hook.url}/async`);
    const { message } = await send(owner, agent);
    expect((await deliveryOf(message.id)).outcome).toBe('accepted');
    const body = JSON.parse(hook.requests.filter((r) => r.path === '/async').at(-1)!.body) as {
      callbackToken: string;
    };
    await request(t.http)
      .post(`/api/agent-callbacks/${message.id}`)
      .set('Authorization', `Bearer ${body.callbackToken}`)
      .send({ output: 'later' })
      .expect(200);
    const done = await deliveryOf(message.id);
    expect(done.outcome).toBe('delivered');
    expect(done.replyId).toEqual(expect.any(String));

    const late = await send(owner, agent);
    await t.app.get(ChatsService).failReply(late.message.id, 'deadline', 'callback_expired');
    expect((await deliveryOf(late.message.id)).outcome).toBe('callback_expired');
  }, 30_000);

  it('keeps the bodies redacted of secrets, and not at all with retention off', async () => {
    const agent = await agentAt(owner, 'Signed', `${hook.url}/secret-answer`, true);
    const { message } = await send(owner, agent, 'my message');
    const kept = await deliveryOf(message.id);
    const sent = JSON.parse(kept.requestBody!) as Record<string, unknown>;
    expect(sent).toMatchObject({ message: 'my message', messageId: message.id, callbackToken: REDACTED });
    expect(kept.requestHeaders).toMatchObject({ 'webhook-id': message.id, 'webhook-signature': REDACTED });
    const realToken = (JSON.parse(hook.requests.at(-1)!.body) as { callbackToken: string }).callbackToken;
    const stored = await db().query<{ all: string }>(
      `SELECT concat(request_body, response_body, request_headers::text) AS all FROM webhook_deliveries WHERE id = $1`,
      [kept.id],
    );
    expect(stored[0].all).not.toContain(realToken);
    expect(stored[0].all).not.toContain('sk-live-123');
    expect(JSON.parse(kept.responseBody!)).toEqual([{ output: 'fine', apiKey: REDACTED }]);

    await request(t.http)
      .patch('/api/company/delivery-settings')
      .set(as(owner))
      .send({ retentionDays: 0 })
      .expect(200, { retentionDays: 0 });
    // Kept before, but no longer shown, and none kept from now on.
    expect((await deliveryOf(message.id)).bodiesKept).toBe(false);
    const off = await deliveryOf((await send(owner, agent)).message.id);
    expect(off).toMatchObject({ bodiesKept: false, requestBody: null, responseBody: null });
    const [raw] = await db().query<{ request_body: string | null }>(
      `SELECT request_body FROM webhook_deliveries WHERE id = $1`,
      [off.id],
    );
    expect(raw.request_body).toBeNull();
    const audit = await db().query<{ details: { from: number; to: number } }>(
      `SELECT details FROM audit_log WHERE action = 'delivery.retention_changed' AND company_id = $1`,
      [owner.companyId],
    );
    expect(audit.map((a) => a.details)).toEqual([{ from: 7, to: 0 }]);
    await request(t.http)
      .patch('/api/company/delivery-settings')
      .set(as(owner))
      .send({ retentionDays: 7 })
      .expect(200);
    const bad = async (body: object) =>
      (await request(t.http).patch('/api/company/delivery-settings').set(as(owner)).send(body).expect(400))
        .body.message as string;
    expect(await bad({ retentionDays: -1 })).toBe('retentionDays must be 0 (bodies not kept) or more');
    expect(await bad({ retentionDays: 365 })).toBe('retentionDays must be at most 30');
    expect(await bad({ retentionDays: 'week' })).toBe('retentionDays must be a whole number of days');
  }, 30_000);

  it('clears bodies past the retention and deletes rows past the horizon, in batches', async () => {
    const agent = await agentAt(owner, 'Aging', `${hook.url}/ok`);
    const fresh = (await send(owner, agent)).message.id;
    const old = (await send(owner, agent)).message.id;
    const ancient = (await send(owner, agent)).message.id;
    await db().query(
      `UPDATE webhook_deliveries SET started_at = now() - interval '8 days' WHERE message_id = $1`,
      [old],
    );
    await db().query(
      `UPDATE webhook_deliveries SET started_at = now() - interval '91 days' WHERE message_id = $1`,
      [ancient],
    );
    const result = await t.app.get(DeliveriesPruner).prune();
    expect(result.cleared).toBeGreaterThanOrEqual(1);
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    const rows = await db().query<{ message_id: string; request_body: string | null }>(
      `SELECT message_id, request_body FROM webhook_deliveries WHERE message_id = ANY($1::uuid[])`,
      [[fresh, old, ancient]],
    );
    const by = new Map(rows.map((r) => [r.message_id, r.request_body]));
    expect(by.get(fresh)).toEqual(expect.any(String));
    expect(by.has(old)).toBe(true);
    expect(by.get(old)).toBeNull();
    expect(by.has(ancient)).toBe(false);
  });

  it('pages newest first and filters by agent and outcome; bad input is a readable 400', async () => {
    const company = await registerUser(t);
    const ok = await agentAt(company, 'Ok', `${hook.url}/ok`);
    const broken = await agentAt(company, 'Broken', `${hook.url}/400`);
    for (let i = 0; i < 3; i++) await send(company, ok);
    await send(company, broken);
    const seen: DeliveryView[] = [];
    let before: string | undefined;
    do {
      const page = (await list(company, { limit: '2', ...(before ? { before } : {}) }).expect(200))
        .body as DeliveryPage;
      seen.push(...page.deliveries);
      before = page.nextCursor ?? undefined;
    } while (before);
    expect(seen).toHaveLength(4);
    const times = seen.map((d) => d.startedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(seen[0].agentName).toBe('Broken');
    const failed = (await list(company, { outcome: 'failed' }).expect(200)).body as DeliveryPage;
    expect(failed.deliveries.map((d) => d.agentId)).toEqual([broken]);
    const byAgent = (await list(company, { agentId: ok }).expect(200)).body as DeliveryPage;
    expect(byAgent.deliveries).toHaveLength(3);
    expect(byAgent.deliveries.every((d) => d.outcome === 'delivered')).toBe(true);

    const bad = async (query: Record<string, string>) =>
      (await list(company, query).expect(400)).body.message as string;
    expect(await bad({ outcome: 'exploded' })).toMatch(/^outcome must be one of: delivered, /);
    expect(await bad({ agentId: 'nope' })).toBe('agentId must be an agent id');
    expect(await bad({ before: 'garbage' })).toBe(
      'Invalid cursor: load the delivery log again from the start.',
    );
    expect(await bad({ limit: '500' })).toBe('limit must be between 1 and 50');
    await detail(company, 'not-a-uuid').expect(404);
  });

  it('replays a failed delivery to the fixed webhook: the reply reaches the chat live, once', async () => {
    const agent = await agentAt(owner, 'Flaky', `${hook.url}/400`);
    const { message, chat } = await send(owner, agent, 'try me');
    const failed = await deliveryOf(message.id);
    expect(failed.outcome).toBe('http_status');
    await request(t.http)
      .patch(`/api/agents/${agent}`)
      .set(as(owner))
      .send({ webhook: `${hook.url}/ok` })
      .expect(200);

    const replied = tab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.chatId === chat.id && p.message.senderType === 'agent',
    );
    const res = await replay(owner, failed.id).expect(200);
    expect((res.body as DeliveryDetail).replayedAt).toEqual(expect.any(String));
    expect((await replied).message.content).toBe('pong: try me');
    await t.drain();
    const again = await deliveryOf(message.id, 1);
    expect(again).toMatchObject({ outcome: 'delivered', replayOf: failed.id, round: 1 });
    const sentBody = JSON.parse(hook.requests.at(-1)!.body) as Record<string, unknown>;
    expect(sentBody).toMatchObject({ messageId: message.id, replay: true });
    expect(sentBody.regenerate).toBeUndefined();

    expect((await replay(owner, failed.id).expect(409)).body.message).toBe(ALREADY_REPLAYED);
    expect((await replay(owner, again.id).expect(409)).body.message).toBe(NOT_FAILED);
    const audit = await db().query<{ target_id: string; actor_id: string }>(
      `SELECT target_id, actor_id FROM audit_log WHERE action = 'delivery.replayed' AND company_id = $1`,
      [owner.companyId],
    );
    expect(audit).toEqual([{ target_id: failed.id, actor_id: owner.userId }]);

    // A replay's job lost (Redis flushed): the sweep queues it again, still a replay.
    await db().query(
      `UPDATE messages SET reply_status = 'pending', reply_requested_at = now() - interval '1 minute' WHERE id = $1`,
      [message.id],
    );
    await db().query(`DELETE FROM messages WHERE reply_to = $1`, [message.id]);
    const lost = await t.app.get(MessagesRepository).pendingReplyIds(5_000, 500);
    expect(lost.find((l) => l.id === message.id)).toMatchObject({ round: 1, replayOf: failed.id });
    await t.app.get(ChatsService).failReply(message.id, 'cleanup', 'other');
  }, 30_000);

  it('replays one of two replays at once, and refuses when the chat moved on or is gone', async () => {
    const agent = await agentAt(owner, 'Refusing', `${hook.url}/400`);
    const twice = await send(owner, agent);
    const delivery = await deliveryOf(twice.message.id);
    const both = await Promise.all([replay(owner, delivery.id), replay(owner, delivery.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    await t.drain();
    const [msg] = await db().query<{ reply_round: number }>(
      `SELECT reply_round FROM messages WHERE id = $1`,
      [twice.message.id],
    );
    expect(msg.reply_round).toBe(1);

    // The user wrote in the chat since: only the latest message is asked again.
    const moved = await send(owner, agent);
    const movedDelivery = await deliveryOf(moved.message.id);
    await request(t.http)
      .post(`/api/chats/${moved.chat.id}/messages`)
      .set(as(owner))
      .send({ content: 'another one' })
      .expect(201);
    await t.drain();
    expect((await replay(owner, movedDelivery.id).expect(409)).body.message).toBe(WRITTEN_SINCE);

    const gone = await send(owner, agent);
    const goneDelivery = await deliveryOf(gone.message.id);
    await request(t.http).delete(`/api/chats/${gone.chat.id}`).set(as(owner)).expect(204);
    expect((await replay(owner, goneDelivery.id).expect(409)).body.message).toBe(CHAT_GONE);
  }, 30_000);

  it('replays every failed delivery of an agent since a time, with one audit entry', async () => {
    const company = await registerUser(t);
    const agent = await agentAt(company, 'Down', `${hook.url}/400`);
    const since = new Date(Date.now() - 1000).toISOString();
    await send(company, agent);
    await send(company, agent);
    await request(t.http)
      .patch(`/api/agents/${agent}`)
      .set(as(company))
      .send({ webhook: `${hook.url}/ok` })
      .expect(200);
    const bulk = (body: object) =>
      request(t.http).post('/api/company/deliveries/replay').set(as(company)).send(body);
    const result = (await bulk({ agentId: agent, since }).expect(200)).body as BulkReplayResult;
    expect(result).toEqual({ replayed: 2, skipped: 0, overCap: 0 });
    await t.drain();
    const delivered = (await list(company, { outcome: 'delivered' }).expect(200)).body as DeliveryPage;
    expect(delivered.deliveries.filter((d) => d.replayOf)).toHaveLength(2);
    // Nothing left to replay.
    expect((await bulk({ agentId: agent, since }).expect(200)).body).toEqual({
      replayed: 0,
      skipped: 0,
      overCap: 0,
    });
    const audit = await db().query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE action = 'delivery.replayed' AND company_id = $1`,
      [company.companyId],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ bulk: true, replayed: 2 });

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await bulk({ agentId: agent, since: future }).expect(400)).body.message).toBe(SINCE_IN_FUTURE);
    expect((await bulk({ agentId: agent, since: 'yesterday' }).expect(400)).body.message).toBe(
      'since must be a date and time (ISO 8601)',
    );
    expect((await bulk({ since }).expect(400)).body.message).toBe('agentId must be an agent id');
  }, 30_000);

  it('answers owners and admins only, and never with another company’s deliveries', async () => {
    const admin = await joinAsNewMember(t, owner, owner.companyId, 'admin');
    const member = await joinAsNewMember(t, owner, owner.companyId, 'user');
    const stranger = await registerUser(t);
    const page = (await list(admin).expect(200)).body as DeliveryPage;
    expect(page.deliveries.length).toBeGreaterThan(0);
    const id = page.deliveries[0].id;
    await detail(admin, id).expect(200);
    await list(member).expect(403);
    await detail(member, id).expect(403);
    await replay(member, id).expect(403);
    await list(stranger, {}, owner.companyId).expect(404);
    await detail(stranger, id, owner.companyId).expect(404);
    // Named from the stranger's own company: not theirs.
    await detail(stranger, id).expect(404);
    await replay(stranger, id).expect(404);
    expect(((await list(stranger).expect(200)).body as DeliveryPage).deliveries).toEqual([]);
  }, 30_000);
});
