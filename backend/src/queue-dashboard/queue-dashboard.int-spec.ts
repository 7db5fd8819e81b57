import { Redis } from 'ioredis';
import request from 'supertest';
import { createFreshDatabase, createTestApp, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { isSuperadmin, setSuperadmin } from '../../test/factories';
import { type Account, registerAccount, revokeSession } from '../../test/identities.test-util';
import { QUEUE_NAME } from '../queue/bullmq-job-queue';
import { JobQueue } from '../queue/job-queue';
import { HIDDEN } from './job-data-redaction';
import { ACTION_NOT_OFFERED, DASHBOARD_COOKIE, OPEN_FROM_THE_APP } from './queue-dashboard-access';
import { NO_QUEUE_DASHBOARD } from './queue-dashboard.controller';

// The operators' queue dashboard, behind superadmin access, when REDIS_URL is set.
const redisUrl = process.env.REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;
const DASHBOARD = '/api/admin/queues';

describeWithRedis('the queue dashboard (bull-board) at /api/admin/queues', () => {
  const prefix = `sbqueues${process.pid}${Date.now()}`;
  let fresh: Awaited<ReturnType<typeof createFreshDatabase>>;
  let t: TestApp;
  let admin: Account;
  let member: Account;

  // The dashboard session is opened from the app: its own origin, no company.
  const fromApp = (account: Account) => ({ ...as(account, null), Origin: t.config.appOrigin });

  /** POST /api/admin/queues/session as this account: the cookie to send, and the raw Set-Cookie. */
  async function openDashboard(account: Account): Promise<{ cookie: string; setCookie: string }> {
    const res = await request(t.http).post(`${DASHBOARD}/session`).set(fromApp(account)).expect(201);
    expect(res.body).toEqual({ url: DASHBOARD, expiresAt: expect.any(String) as unknown });
    const setCookie = ((res.headers['set-cookie'] as unknown as string[]) ?? []).find((c) =>
      c.startsWith(`${DASHBOARD_COOKIE}=`),
    );
    if (!setCookie) throw new Error('no dashboard cookie');
    return { cookie: setCookie.split(';')[0], setCookie };
  }

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    t = await createTestApp({ REDIS_URL: redisUrl, BULLMQ_PREFIX: prefix, PROCESS_ROLE: 'api' }, fresh.url);
    // The first account of a fresh installation is the superadmin.
    admin = await registerAccount(t, 'queues-admin');
    member = await registerAccount(t, 'queues-member');
    expect(await isSuperadmin(t.app, admin.userId)).toBe(true);
    // A job nobody runs (no worker in this test): it waits on the board, data and all.
    await t.app.get(JobQueue).enqueue('mail.send', {
      to: 'someone@example.com',
      subject: 'Reset your password',
      text: 'https://app.example/reset-password?token=very-secret-reset-token',
      html: '<a href="https://app.example/reset-password?token=very-secret-reset-token">Reset</a>',
    });
  });

  afterAll(async () => {
    await t?.close();
    await fresh?.drop();
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('refuses the page, its assets and its API without the dashboard cookie', async () => {
    for (const path of [
      DASHBOARD,
      `${DASHBOARD}/`,
      `${DASHBOARD}/api/queues`,
      `${DASHBOARD}/static/js/x.js`,
    ]) {
      const res = await request(t.http).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect(res.body.message).toBe(OPEN_FROM_THE_APP);
    }
    // An access token is no dashboard credential, neither as a header nor as the cookie.
    await request(t.http).get(DASHBOARD).set(fromApp(admin)).expect(401);
    await request(t.http)
      .get(DASHBOARD)
      .set('Cookie', `${DASHBOARD_COOKIE}=${admin.accessToken}`)
      .expect(401);
  });

  it('lets only a superadmin, from the app itself, open a dashboard session', async () => {
    await request(t.http).post(`${DASHBOARD}/session`).set('Origin', t.config.appOrigin).expect(401);
    const refused = await request(t.http).post(`${DASHBOARD}/session`).set(fromApp(member)).expect(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
    await request(t.http)
      .post(`${DASHBOARD}/session`)
      .set({ ...fromApp(admin), Origin: 'https://evil.example' })
      .expect(403);
    const { setCookie } = await openDashboard(admin);
    expect(setCookie).toMatch(/; Path=\/api\/admin\/queues/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Max-Age=900/);
  });

  it('shows a superadmin the board, its assets and our queue, with job data redacted', async () => {
    const { cookie } = await openDashboard(admin);
    const page = await request(t.http).get(DASHBOARD).set('Cookie', cookie).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<base href="/api/admin/queues/"');
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    await request(t.http).get(`${DASHBOARD}/${script}`).set('Cookie', cookie).expect(200);
    await request(t.http).get(`${DASHBOARD}/${script}`).expect(401);

    const api = await request(t.http)
      .get(`${DASHBOARD}/api/queues`)
      .query({ activeQueue: QUEUE_NAME, status: 'waiting', page: '1' })
      .set('Cookie', cookie)
      .expect(200);
    const queue = (
      api.body.queues as Array<{ name: string; jobs: Array<{ name: string; data: unknown }> }>
    ).find((q) => q.name === QUEUE_NAME);
    expect(queue).toBeDefined();
    const mail = queue?.jobs.find((job) => job.name === 'mail.send');
    expect(mail?.data).toEqual({
      to: 'someone@example.com',
      subject: 'Reset your password',
      text: HIDDEN,
      html: HIDDEN,
    });
    expect(api.text).not.toContain('very-secret-reset-token');
  });

  it('offers retry, promote and clean, from the dashboard’s own pages only', async () => {
    const { cookie } = await openDashboard(admin);
    const own = { Cookie: cookie, Origin: t.config.appOrigin };
    for (const action of ['empty', 'pause', 'obliterate', 'add']) {
      const res = await request(t.http)
        .put(`${DASHBOARD}/api/queues/${QUEUE_NAME}/${action}`)
        .set(own)
        .send({ name: 'mail.send', data: {} });
      expect({ action, status: res.status, message: res.body.message }).toEqual({
        action,
        status: 403,
        message: ACTION_NOT_OFFERED,
      });
    }
    await request(t.http).post(`${DASHBOARD}/api/queues/${QUEUE_NAME}/add`).set(own).send({}).expect(403);
    // Allowed through to bull-board, which answers for the job (none with this id).
    const retry = await request(t.http)
      .put(`${DASHBOARD}/api/queues/${QUEUE_NAME}/no-such-job/retry`)
      .set(own);
    expect(retry.status).toBe(404);
    await request(t.http)
      .put(`${DASHBOARD}/api/queues/${QUEUE_NAME}/no-such-job/retry`)
      .set({ Cookie: cookie, Origin: 'https://evil.example' })
      .expect(403);
    await request(t.http)
      .put(`${DASHBOARD}/api/queues/${QUEUE_NAME}/no-such-job/retry`)
      .set({ Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' })
      .expect(403);
  });

  it('stops at once when the superadmin is demoted, and when the session signs out', async () => {
    const { cookie } = await openDashboard(admin);
    await request(t.http).get(`${DASHBOARD}/api/queues`).set('Cookie', cookie).expect(200);
    await setSuperadmin(t.app, admin.userId, false);
    try {
      await request(t.http).get(`${DASHBOARD}/api/queues`).set('Cookie', cookie).expect(403);
    } finally {
      await setSuperadmin(t.app, admin.userId, true);
    }
    await request(t.http).get(`${DASHBOARD}/api/queues`).set('Cookie', cookie).expect(200);
    await revokeSession(t, admin);
    const ended = await request(t.http).get(DASHBOARD).set('Cookie', cookie).expect(401);
    expect(ended.body.message).toBe('Your session has ended. Please sign in again.');
  });

  it('does not exist without REDIS_URL', async () => {
    const plain = await createTestApp({}, fresh.url);
    try {
      const boss = await registerAccount(plain, 'queues-admin-2');
      await setSuperadmin(plain.app, boss.userId, true);
      for (const path of [DASHBOARD, `${DASHBOARD}/api/queues`]) {
        await request(plain.http).get(path).expect(404);
      }
      const res = await request(plain.http)
        .post(`${DASHBOARD}/session`)
        .set({ Authorization: `Bearer ${boss.accessToken}`, Origin: plain.config.appOrigin })
        .expect(404);
      expect(res.body.message).toBe(NO_QUEUE_DASHBOARD);
    } finally {
      await plain.close();
    }
  });
});
