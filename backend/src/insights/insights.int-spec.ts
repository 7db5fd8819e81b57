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
import type { ChatView, MessageView } from '../contracts/chats';
import type { InsightsReport } from '../contracts/insights';
import { ChatsService } from '../chats/chats.service';
import { Database } from '../database/database';
import { InsightsRollupsRepository } from './insights-rollups.repository';
import { INSIGHTS_RANGE_BACKWARDS, INSIGHTS_RANGE_TOO_LONG } from './insights.service';

/**
 * The Insights rollups kept by the real message path (send → job → webhook → reply or failure, ratings),
 * and GET /api/company/insights: roles, tenancy, ranges.
 */
describe('Insights (rollups and the API)', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  let owner: RegisteredUser;
  const sockets: EventLog[] = [];

  beforeAll(async () => {
    hook = await startFakeWebhook({
      '/stream': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify({ type: 'item', content: 'streamed ' })}\n`);
        setTimeout(() => {
          res.write(`${JSON.stringify({ type: 'item', content: 'answer' })}\n`);
          res.end('{"type":"end"}\n');
        }, 50);
      },
    });
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '2000' });
    owner = await registerUser(t);
  });
  afterAll(async () => {
    while (sockets.length) sockets.pop()?.close();
    await t?.close();
    await hook?.close();
  });

  const insights = (user: { accessToken: string }, companyId: string, query: Record<string, string> = {}) =>
    request(t.http).get('/api/company/insights').query(query).set(as(user, companyId));

  async function agentAt(user: RegisteredUser, name: string, webhook: string): Promise<string> {
    const res = await request(t.http).post('/api/agents').set(as(user)).send({ name, webhook }).expect(201);
    return res.body.id as string;
  }

  /** Sends a message in a new chat and waits for the reply (or the failure) to reach the user's tab. */
  async function exchange(user: RegisteredUser, agentId: string, tab: EventLog, content = 'hello') {
    const sent = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId, content })
      .expect(201);
    const chat = sent.body.chat as ChatView;
    const message = sent.body.message as MessageView;
    // The typing indicator goes off once the reply is stored or has failed; then which one it was.
    await tab.waitFor<{ chatId: string; typing: boolean }>(
      'agent.typing',
      (p) => p.chatId === chat.id && !p.typing,
      15_000,
    );
    const reply = tab.events.find(
      (e) =>
        e.event === 'message.created' &&
        (e.payload as { message: MessageView }).message.chatId === chat.id &&
        (e.payload as { message: MessageView }).message.senderType === 'agent',
    );
    const outcome = {
      chatId: chat.id,
      message: (reply?.payload as { message: MessageView } | undefined)?.message,
    };
    return { chat, message, outcome: outcome as { chatId: string; message?: MessageView } };
  }

  it('counts messages, replies, latency, failures by kind, retries and ratings as they happen', async () => {
    const tab = await connectSocket(t.baseUrl, owner.accessToken);
    sockets.push(tab);
    const echo = await agentAt(owner, 'Echo', `${hook.url}/ok`);
    const broken = await agentAt(owner, 'Broken', `${hook.url}/500`);
    const refusing = await agentAt(owner, 'Refusing', `${hook.url}/400`);
    const garbled = await agentAt(owner, 'Garbled', `${hook.url}/malformed`);
    const streaming = await agentAt(owner, 'Streaming', `${hook.url}/stream`);

    const replies: MessageView[] = [];
    for (let i = 0; i < 3; i++) replies.push((await exchange(owner, echo, tab)).outcome.message!);
    expect(replies.every((r) => r?.senderType === 'agent')).toBe(true);
    await exchange(owner, broken, tab);
    await exchange(owner, refusing, tab);
    await exchange(owner, garbled, tab);
    await exchange(owner, streaming, tab);

    // Ratings: given, changed, taken back.
    const rate = (id: string, score: 'like' | 'dislike' | null) =>
      request(t.http).put(`/api/messages/${id}/feedback`).set(as(owner)).send({ score }).expect(200);
    await rate(replies[0].id, 'like');
    await rate(replies[1].id, 'like');
    await rate(replies[1].id, 'dislike');
    await rate(replies[2].id, 'like');
    await rate(replies[2].id, null);

    const report = (await insights(owner, owner.companyId).expect(200)).body as InsightsReport;
    const row = (id: string) => report.agents.find((a) => a.agentId === id)!;

    expect(row(echo)).toMatchObject({
      agentName: 'Echo',
      messages: 3,
      replies: 3,
      activeUsers: 1,
      chats: 3,
      failed: 0,
      thumbsUp: 1,
      thumbsDown: 1,
    });
    expect(row(echo).latency.count).toBe(3);
    expect(row(echo).latency.p50Ms).toEqual(expect.any(Number));
    expect(row(echo).latency.p95Ms).toBeGreaterThanOrEqual(row(echo).latency.p50Ms!);

    // 5xx: tried three times (two retries), then failed as an HTTP status.
    expect(row(broken)).toMatchObject({ messages: 1, replies: 0, failed: 1, retries: 2 });
    expect(row(broken).failures.http_status).toBe(1);
    // 4xx: once, no retry.
    expect(row(refusing)).toMatchObject({ failed: 1, retries: 0 });
    expect(row(refusing).failures.http_status).toBe(1);
    // An answer with nothing readable: the apology is a reply, and a malformed answer.
    expect(row(garbled)).toMatchObject({ messages: 1, replies: 1, failed: 1 });
    expect(row(garbled).failures.malformed).toBe(1);
    // Streamed: time to the first piece as well as to the whole reply.
    expect(row(streaming).replies).toBe(1);
    expect(row(streaming).firstChunk.count).toBe(1);
    expect(row(streaming).firstChunk.p50Ms).toEqual(expect.any(Number));

    expect(report.total).toMatchObject({
      messages: 7,
      replies: 5,
      failed: 3,
      retries: 2,
      activeUsers: 1,
      chats: 7,
    });
    expect(report.total.failures).toMatchObject({ http_status: 2, malformed: 1, timeout: 0 });
    expect(report.bucket).toBe('hour');
    expect(report.series).toHaveLength(24 + (Date.now() % 3_600_000 === 0 ? 0 : 1));
    const thisHour = report.series.at(-1)!;
    expect(thisHour).toMatchObject({ messages: 7, replies: 5, failed: 3 });
    expect(report.series.reduce((n, p) => n + p.messages, 0)).toBe(7);

    // One agent only.
    const one = (await insights(owner, owner.companyId, { agentId: echo }).expect(200))
      .body as InsightsReport;
    expect(one.agents.map((a) => a.agentId)).toEqual([echo]);
    expect(one.total.messages).toBe(3);

    // The rollups agree with the messages they count.
    const [scan] = await t.app.get(Database).query<{ messages: number; replies: number }>(
      `SELECT count(*) FILTER (WHERE m.sender_type = 'user')::int AS messages,
              count(*) FILTER (WHERE m.reply_to IS NOT NULL)::int AS replies
         FROM messages m JOIN chats c ON c.id = m.chat_id WHERE c.company_id = $1`,
      [owner.companyId],
    );
    expect(scan).toEqual({ messages: report.total.messages, replies: report.total.replies });
  }, 60_000);

  it('counts an SSRF refusal and a callback that expired by their kinds', async () => {
    const company = await registerUser(t);
    const tab = await connectSocket(t.baseUrl, company.accessToken);
    sockets.push(tab);
    // Not an allowed host, and a private address (moved there after it was saved): the guard refuses.
    const guarded = await agentAt(company, 'Guarded', `${hook.url}/ok`);
    await t.app
      .get(Database)
      .query(`UPDATE agents SET webhook = 'http://10.0.0.1/hook' WHERE id = $1`, [guarded]);
    const { outcome } = await exchange(company, guarded, tab);
    expect(outcome.message).toBeUndefined();
    const sent = await exchange(company, await agentAt(company, 'Late', `${hook.url}/ok`), tab);
    // The callback deadline passing is the sweep's: the same failReply path it takes.
    const db = t.app.get(Database);
    await db.query(`UPDATE messages SET reply_status = 'pending' WHERE id = $1`, [sent.message.id]);
    await db.query(`DELETE FROM messages WHERE reply_to = $1`, [sent.message.id]);
    await t.app.get(ChatsService).failReply(sent.message.id, 'deadline', 'callback_expired');

    const report = (await insights(company, company.companyId).expect(200)).body as InsightsReport;
    expect(report.total.failures).toMatchObject({ ssrf_refused: 1, callback_expired: 1 });
    expect(report.total.failed).toBe(2);
  }, 30_000);

  it('tells the managers (only) that the numbers moved, once for several messages', async () => {
    const company = await registerUser(t);
    const member = await joinAsNewMember(t, company, company.companyId, 'user');
    const managerTab = await connectSocket(t.baseUrl, company.accessToken);
    const memberTab = await connectSocket(t.baseUrl, member.accessToken);
    sockets.push(managerTab, memberTab);
    const echo = await agentAt(company, 'Echo', `${hook.url}/ok`);
    await exchange(company, echo, managerTab);
    await exchange(company, echo, managerTab);
    await managerTab.waitFor(
      'insights.tick',
      (p: { companyId: string }) => p.companyId === company.companyId,
      5_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(managerTab.events.filter((e) => e.event === 'insights.tick')).toHaveLength(1);
    expect(memberTab.events.filter((e) => e.event === 'insights.tick')).toHaveLength(0);
  }, 30_000);

  it('answers owners and admins only, and never with another company’s numbers', async () => {
    const admin = await joinAsNewMember(t, owner, owner.companyId, 'admin');
    const member = await joinAsNewMember(t, owner, owner.companyId, 'user');
    const stranger = await registerUser(t);

    const byAdmin = (await insights(admin, owner.companyId).expect(200)).body as InsightsReport;
    expect(byAdmin.total.messages).toBeGreaterThan(0);
    await insights(member, owner.companyId).expect(403);
    await insights(stranger, owner.companyId).expect(404);

    const own = (await insights(stranger, stranger.companyId).expect(200)).body as InsightsReport;
    expect(own.total.messages).toBe(0);
    expect(own.agents).toEqual([]);
    // Another company's agent named: nothing of it.
    const ownerAgents = (await insights(owner, owner.companyId).expect(200)).body as InsightsReport;
    const theirs = (
      await insights(stranger, stranger.companyId, { agentId: ownerAgents.agents[0].agentId }).expect(200)
    ).body as InsightsReport;
    expect(theirs.agents).toEqual([]);
    expect(theirs.total.messages).toBe(0);
  });

  it('merges past hours into one row per agent and hour without changing a number', async () => {
    const before = (await insights(owner, owner.companyId).expect(200)).body as InsightsReport;
    const db = t.app.get(Database);
    const rowsOf = async () =>
      (
        await db.query<{ n: number; hours: number; shards: number }>(
          `SELECT count(*)::int AS n, count(DISTINCT (agent_id, hour))::int AS hours,
                  count(DISTINCT shard)::int AS shards FROM insights_hourly WHERE company_id = $1`,
          [owner.companyId],
        )
      )[0];
    expect((await rowsOf()).shards).toBeGreaterThan(1);
    // Everything counted so far is "past" for this call.
    const moved = await t.app.get(InsightsRollupsRepository).compact(new Date(Date.now() + 7_200_000));
    expect(moved).toBeGreaterThan(0);
    const merged = await rowsOf();
    expect(merged).toEqual({ n: merged.hours, hours: merged.hours, shards: 1 });
    const after = (await insights(owner, owner.companyId).expect(200)).body as InsightsReport;
    expect(after).toEqual(before);
  });

  it('checks the range, and widens it to whole hours', async () => {
    const bad = async (query: Record<string, string>) =>
      (await insights(owner, owner.companyId, query).expect(400)).body.message as string;
    expect(await bad({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toBe(
      INSIGHTS_RANGE_BACKWARDS,
    );
    expect(await bad({ from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toBe(
      INSIGHTS_RANGE_TOO_LONG,
    );
    expect(await bad({ from: 'yesterday' })).toBe('from must be a date and time (ISO 8601)');
    expect(await bad({ bucket: 'week' })).toBe('bucket must be hour or day');
    expect(await bad({ agentId: 'nope' })).toBe('agentId must be an agent id');

    const res = await insights(owner, owner.companyId, {
      from: '2026-01-01T10:20:00Z',
      to: '2026-01-08T09:10:00Z',
    }).expect(200);
    const report = res.body as InsightsReport;
    expect(report).toMatchObject({
      from: '2026-01-01T10:00:00.000Z',
      to: '2026-01-08T10:00:00.000Z',
      bucket: 'day',
    });
    expect(report.series.map((p) => p.at)).toEqual(
      Array.from({ length: 8 }, (_, i) => `2026-01-0${i + 1}T00:00:00.000Z`),
    );
  });
});
