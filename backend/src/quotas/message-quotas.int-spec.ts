import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newMembership, setSuperadmin } from '../../test/factories';
import type { CompanyDetails } from '../contracts/company-admin';
import type { CompanyQuotaUsage } from '../contracts/company-quotas';
import type { PlatformCompanyDetails } from '../contracts/platform-admin';
import { companyMonthlyQuotaReached, userDailyQuotaReached, utcDay, utcMonth } from './message-quota-periods';
import { MessageQuotaService } from './message-quota.service';

/** The calls and reads every block below makes against its app(s). */
function helpers(app: () => TestApp, superadmin: () => RegisteredUser) {
  const db = () => app().app.get(DataSource);
  return {
    db,
    setQuotas: (companyId: string, body: Record<string, unknown>, caller = superadmin(), on = app()) =>
      request(on.http).patch(`/api/admin/companies/${companyId}/quotas`).set(as(caller, null)).send(body),
    /** The first message of a new chat (POST /api/messages). */
    sendFirst: (user: RegisteredUser, content = 'hello', on = app()) =>
      request(on.http).post('/api/messages').set(as(user)).send({ agentId: 'default-agent', content }),
    send: (user: RegisteredUser, chatId: string, content = 'again', on = app()) =>
      request(on.http).post(`/api/chats/${chatId}/messages`).set(as(user)).send({ content }),
    userMessages: async (userId: string): Promise<number> => {
      const rows: Array<{ n: number }> = await db().query(
        `SELECT count(*)::int AS n FROM messages m JOIN chats c ON c.id = m.chat_id
          WHERE c.user_id = $1 AND m.sender_type = 'user'`,
        [userId],
      );
      return rows[0].n;
    },
    userChats: async (userId: string): Promise<number> => {
      const rows: Array<{ n: number }> = await db().query(
        'SELECT count(*)::int AS n FROM chats WHERE user_id = $1',
        [userId],
      );
      return rows[0].n;
    },
    companyUsage: async (user: RegisteredUser): Promise<CompanyQuotaUsage> =>
      (
        (await request(app().http).get('/api/company/details').set(as(user)).expect(200))
          .body as CompanyDetails
      ).quotas,
  };
}

/** The first instant of the UTC day after `ms`, and the last millisecond before it. */
const nextDay = (ms: number) => utcDay(ms).end.getTime();
const nextMonth = (ms: number) => utcMonth(ms).end.getTime();

describe('message quotas in one process (no Redis: counted in the process)', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  const h = helpers(
    () => t,
    () => admin,
  );
  const clock = () => t.app.get(MessageQuotaService);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerUser(t, { companyName: 'Platform' });
    await setSuperadmin(t.app, admin.userId);
  });
  afterEach(() => {
    clock().now = () => Date.now();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are set by a platform admin, audited, and shown with their use on both Company Details', async () => {
    const owner = await registerUser(t);
    expect(await h.companyUsage(owner)).toMatchObject({
      messagesPerUserPerDay: null,
      messagesPerCompanyPerMonth: null,
      messagesThisMonth: 0,
      yourMessagesToday: 0,
    });
    await h.sendFirst(owner).expect(201);

    const set = await h
      .setQuotas(owner.companyId, { messagesPerUserPerDay: 100, messagesPerCompanyPerMonth: 5000 })
      .expect(200);
    expect(set.body).toMatchObject({
      messagesPerUserPerDay: 100,
      messagesPerCompanyPerMonth: 5000,
      messagesThisMonth: 1,
      yourMessagesToday: null,
    });
    await h.sendFirst(owner).expect(201);
    expect(await h.companyUsage(owner)).toMatchObject({
      messagesPerUserPerDay: 100,
      messagesPerCompanyPerMonth: 5000,
      messagesThisMonth: 2,
      yourMessagesToday: 2,
      storedBytesLimit: null,
    });
    const platform = (
      await request(t.http).get(`/api/admin/companies/${owner.companyId}`).set(as(admin, null)).expect(200)
    ).body as PlatformCompanyDetails;
    expect(platform.quotas).toMatchObject({ messagesPerUserPerDay: 100, messagesThisMonth: 2 });

    const [entry]: Array<{ details: unknown }> = await h.db().query(
      `SELECT details FROM audit_log WHERE action = 'company.quotas_updated' AND target_id = $1
        ORDER BY id DESC LIMIT 1`,
      [owner.companyId],
    );
    expect(entry.details).toEqual({
      before: { storedBytesLimit: null, messagesPerUserPerDay: null, messagesPerCompanyPerMonth: null },
      after: { storedBytesLimit: null, messagesPerUserPerDay: 100, messagesPerCompanyPerMonth: 5000 },
    });

    // Left out: unchanged; null: no limit again.
    const cleared = await h.setQuotas(owner.companyId, { messagesPerUserPerDay: null }).expect(200);
    expect(cleared.body).toMatchObject({ messagesPerUserPerDay: null, messagesPerCompanyPerMonth: 5000 });
  });

  it('refuses a limit that is not a whole number of at least 1, and anyone but a superadmin', async () => {
    const owner = await registerUser(t);
    for (const [field, name] of [
      ['messagesPerUserPerDay', 'daily message limit per user'],
      ['messagesPerCompanyPerMonth', 'monthly message limit of the company'],
    ]) {
      for (const bad of [0, -3, 2.5, 'ten', 1e12]) {
        const res = await h.setQuotas(owner.companyId, { [field]: bad });
        expect([field, bad, res.status]).toEqual([field, bad, 400]);
        expect(res.body.message).toContain(`The ${name}`);
      }
    }
    await h.setQuotas(owner.companyId, { messagesPerUserPerDay: 5 }, owner).expect(403);
    await h.setQuotas('00000000-0000-4000-8000-000000000000', { messagesPerUserPerDay: 5 }).expect(404);
    expect((await h.companyUsage(owner)).messagesPerUserPerDay).toBe(null);
  });

  it('refuses a message over the daily limit with a 429 naming it, storing nothing', async () => {
    const owner = await registerUser(t);
    await h.setQuotas(owner.companyId, { messagesPerUserPerDay: 2 }).expect(200);
    const first = await h.sendFirst(owner).expect(201);
    await h.sendFirst(owner).expect(201);
    const [messages, chats] = [await h.userMessages(owner.userId), await h.userChats(owner.userId)];

    const refused = await h.sendFirst(owner, 'one too many');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      "You have reached your company's limit of 2 messages per user per day. It resets at 00:00 UTC.",
    );
    expect(refused.body.message).toBe(userDailyQuotaReached(2));
    // In an existing chat as well (its reply settled first, so only the quota stands in the way).
    const chatId = (first.body as { chat: { id: string } }).chat.id;
    await waitForNoPendingReply(h.db(), chatId);
    expect((await h.send(owner, chatId)).status).toBe(429);
    expect(await h.userMessages(owner.userId)).toBe(messages);
    expect(await h.userChats(owner.userId)).toBe(chats);

    // Another member has a day of their own.
    const colleague = await registerUser(t);
    await newMembership(t.app, owner, colleague);
    const colleagueHere = { ...colleague, companyId: owner.companyId };
    await h.sendFirst(colleagueHere).expect(201);

    // A refusal took nothing: one more allowed is exactly one more message.
    await h.setQuotas(owner.companyId, { messagesPerUserPerDay: 3 }).expect(200);
    await h.sendFirst(owner).expect(201);
    expect((await h.sendFirst(owner)).status).toBe(429);
  });

  it('resets at 00:00 UTC for the day and on the 1st at 00:00 UTC for the month', async () => {
    const owner = await registerUser(t);
    const midnight = nextDay(Date.now());
    clock().now = () => midnight - 1;
    await h.setQuotas(owner.companyId, { messagesPerUserPerDay: 1 }).expect(200);
    await h.sendFirst(owner).expect(201);
    expect((await h.sendFirst(owner)).status).toBe(429);
    clock().now = () => midnight;
    await h.sendFirst(owner).expect(201);
    expect((await h.sendFirst(owner)).status).toBe(429);

    const other = await registerUser(t);
    const monthEnd = nextMonth(Date.now());
    clock().now = () => monthEnd - 1;
    await h.setQuotas(other.companyId, { messagesPerCompanyPerMonth: 2 }).expect(200);
    await h.sendFirst(other).expect(201);
    await h.sendFirst(other).expect(201);
    const refused = await h.sendFirst(other);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(companyMonthlyQuotaReached(2, new Date(monthEnd)));
    expect(refused.body.message).toMatch(
      /^You have reached your company's limit of 2 messages per month\. It resets on 1 [A-Z][a-z]+ at 00:00 UTC\.$/,
    );
    clock().now = () => monthEnd;
    await h.sendFirst(other).expect(201);
  });

  it('gives the unit back when the message is then refused for another reason', async () => {
    const owner = await registerUser(t);
    await h.setQuotas(owner.companyId, { messagesPerUserPerDay: 2 }).expect(200);
    const first = await h.sendFirst(owner).expect(201);
    const chatId = (first.body as { chat: { id: string } }).chat.id;
    await waitForNoPendingReply(h.db(), chatId);
    await request(t.http).patch(`/api/chats/${chatId}`).set(as(owner)).send({ isArchived: true }).expect(200);
    for (let i = 0; i < 3; i++) expect((await h.send(owner, chatId)).status).toBe(400);
    await h.sendFirst(owner).expect(201);
    expect((await h.sendFirst(owner)).status).toBe(429);
  });

  it('stores exactly K of N simultaneous messages at a limit of K', async () => {
    const owner = await registerUser(t);
    const limit = 3;
    await h.setQuotas(owner.companyId, { messagesPerUserPerDay: limit }).expect(200);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => h.sendFirst(owner, `race ${i}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(limit);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10 - limit);
    expect(await h.userMessages(owner.userId)).toBe(limit);
    expect(await h.userChats(owner.userId)).toBe(limit);
  });

  it('keeps counting the messages of a deleted chat (the day and the month, and Insights)', async () => {
    const owner = await registerUser(t);
    await h
      .setQuotas(owner.companyId, { messagesPerUserPerDay: 2, messagesPerCompanyPerMonth: 10 })
      .expect(200);
    const first = await h.sendFirst(owner).expect(201);
    const chatId = (first.body as { chat: { id: string } }).chat.id;
    await waitForNoPendingReply(h.db(), chatId);
    await request(t.http).delete(`/api/chats/${chatId}`).set(as(owner)).expect(204);
    await h.sendFirst(owner).expect(201);
    expect((await h.sendFirst(owner)).status).toBe(429);
    // What PostgreSQL counts (a counter started again, or Redis away) has the deleted chat too.
    const repository = t.app.get(MessageQuotaService);
    const usage = await repository.usage(owner.companyId, owner.userId);
    expect(usage).toEqual({ messagesThisMonth: 2, yourMessagesToday: 2 });
    const rows: Array<{ n: number }> = await h
      .db()
      .query(
        `SELECT coalesce(sum(messages), 0)::int AS n FROM insights_daily_chats WHERE company_id = $1 AND user_id = $2`,
        [owner.companyId, owner.userId],
      );
    expect(rows[0].n).toBe(2);
    const insights = await request(t.http).get('/api/company/insights').set(as(owner)).expect(200);
    expect(insights.body.total).toMatchObject({ messages: 2, chats: 2, activeUsers: 1 });
  });
});

const redisUrl = process.env.REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('message quotas on two processes sharing one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: RegisteredUser;
  const h = helpers(
    () => a,
    () => admin,
  );

  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl, BULLMQ_PREFIX: `quota${process.pid}${Date.now()}` };
    [a, b] = await Promise.all([createTestApp(env), createTestApp(env)]);
    admin = await registerUser(a, { companyName: 'Platform' });
    await setSuperadmin(a.app, admin.userId);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('lets exactly K of N messages through across both, and both see a change at once', async () => {
    const owner = await registerUser(a);
    // Both processes cache "no quotas" first.
    await h.sendFirst(owner, 'before', a).expect(201);
    await h.sendFirst(owner, 'before', b).expect(201);
    await h.setQuotas(owner.companyId, { messagesPerCompanyPerMonth: 6 }).expect(200);
    // The other process hears of the change (pub/sub) rather than after its cache's minute.
    const cacheOfB = (b.app.get(MessageQuotaService) as unknown as { cache: Map<string, unknown> }).cache;
    await eventually(() => Promise.resolve(!cacheOfB.has(owner.companyId)));
    const colleague = await registerUser(a);
    await newMembership(a.app, owner, colleague);
    const members = [owner, { ...colleague, companyId: owner.companyId }];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => h.sendFirst(members[i % 2], `race ${i}`, i % 3 ? a : b)),
    );
    expect(results.map((r) => r.status).filter((s) => s === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 429)).toHaveLength(8);
    const rows: Array<{ n: number }> = await h.db().query(
      `SELECT count(*)::int AS n FROM messages m JOIN chats c ON c.id = m.chat_id
        WHERE c.company_id = $1 AND m.sender_type = 'user'`,
      [owner.companyId],
    );
    expect(rows[0].n).toBe(6);
    expect((await h.companyUsage(owner)).messagesThisMonth).toBe(6);

    // Raised on a: b admits the next message at once.
    await h.setQuotas(owner.companyId, { messagesPerCompanyPerMonth: 7 }).expect(200);
    await eventually(async () => (await h.sendFirst(owner, 'raised', b)).status === 201);
    expect((await h.sendFirst(owner, 'over', b)).status).toBe(429);
  });
});

async function waitForNoPendingReply(db: DataSource, chatId: string): Promise<void> {
  await eventually(async () => {
    const rows: Array<{ n: number }> = await db.query(
      `SELECT count(*)::int AS n FROM messages WHERE chat_id = $1 AND reply_status = 'pending'`,
      [chatId],
    );
    return rows[0].n === 0;
  });
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
