import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { buildBackendOnce } from '../../test/processes.test-util';
import { createTestApp, registerUser, type TestApp, testDatabaseUrl } from '../../test/app.test-util';
import { connectSocket, startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';
import type { MessageView } from '../realtime/client-events';
import { SWEEP_EVERY_MS } from './jobs/stale-reply.sweeper';

const redisUrl = process.env.REDIS_URL;
// CI always sets REDIS_URL (.ci/run starts Redis); without it there is no Redis to test against.
const describeWithRedis = redisUrl ? describe : describe.skip;
const ROOT = resolve(__dirname, '..', '..', '..');

describeWithRedis('api and a separate worker process through Redis (BullMQ)', () => {
  const prefix = `sbtest${process.pid}${Date.now()}`;
  const secret = 'bullmq-test-secret-that-is-long-enough-000';
  let api: TestApp;
  let worker: ChildProcess;
  let hook: FakeWebhook;
  let workerLog = '';

  beforeAll(async () => {
    // The worker runs as `npm run worker` does: the built backend, in its own process.
    buildBackendOnce(ROOT);
    hook = await startFakeWebhook();
    const env = {
      REDIS_URL: redisUrl,
      BULLMQ_PREFIX: prefix,
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '2000',
      JWT_SECRET: secret,
    };
    api = await createTestApp({ ...env, PROCESS_ROLE: 'api' });
    worker = spawn(process.execPath, [join(ROOT, 'backend', 'dist', 'worker.js')], {
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: testDatabaseUrl(),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-worker-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout?.on('data', (d: Buffer) => (workerLog += d.toString()));
    worker.stderr?.on('data', (d: Buffer) => (workerLog += d.toString()));
    const deadline = Date.now() + 30_000;
    while (!workerLog.includes('Worker started') && Date.now() < deadline) {
      if (worker.exitCode !== null) throw new Error(`worker exited: ${workerLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!workerLog.includes('Worker started')) throw new Error(`worker did not start: ${workerLog}`);
  }, 90_000);

  afterAll(async () => {
    worker?.kill('SIGTERM');
    await new Promise((r) => (worker?.exitCode !== null ? r(null) : worker.once('exit', r)));
    await api?.close();
    await hook?.close();
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('the worker answers, and its events reach the api node’s sockets through Redis', async () => {
    const user = await registerUser(api);
    const headers = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
    const tab = await connectSocket(api.baseUrl, user.accessToken);
    try {
      const agent = await request(api.http)
        .post('/api/agents')
        .set(headers)
        .send({ name: 'Echo', webhook: `${hook.url}/ok` })
        .expect(201);
      const sent = await request(api.http)
        .post('/api/messages')
        .set(headers)
        .send({ agentId: agent.body.id, content: 'through redis' })
        .expect(201);
      const reply = await tab.waitFor<{ message: MessageView }>(
        'message.created',
        (p) => p.message.senderType === 'agent',
        20_000,
      );
      expect(reply.message.content).toBe('pong: through redis');
      await tab.waitFor('agent.typing', (p: { typing: boolean }) => !p.typing);
      expect(hook.requests.filter((r) => r.path === '/ok')).toHaveLength(1);
      expect(hook.requests[0].headers['webhook-id']).toBe(sent.body.message.id);
    } finally {
      tab.close();
    }
  }, 30_000);

  it("a message to a chat: Redis holds its job's ids only, and the worker reads the message itself", async () => {
    const user = await registerUser(api);
    const headers = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
    const tab = await connectSocket(api.baseUrl, user.accessToken);
    const queue = new Queue('switchboard', { connection: { url: redisUrl }, prefix });
    try {
      const agent = await request(api.http)
        .post('/api/agents')
        .set(headers)
        .send({ name: 'Signed', webhook: `${hook.url}/ok`, signed: true })
        .expect(201);
      const chat = await request(api.http)
        .post('/api/chats')
        .set(headers)
        .send({ agentId: agent.body.id })
        .expect(201);
      const sent = await request(api.http)
        .post(`/api/chats/${chat.body.id}/messages`)
        .set(headers)
        .send({ content: 'by id' })
        .expect(201);
      const messageId = (sent.body as MessageView).id;
      const reply = await tab.waitFor<{ message: MessageView }>(
        'message.created',
        (p) => p.message.senderType === 'agent',
        20_000,
      );
      expect(reply.message.content).toBe('pong: by id');
      const job = await queue.getJob(`agent.reply-${messageId}`);
      expect(job?.data).toEqual({ messageId, requestId: expect.any(String) });
      const stored = JSON.stringify(job);
      expect(stored).not.toContain(hook.url);
      expect(stored).not.toContain(agent.body.signingSecret as string);
    } finally {
      await queue.close();
      tab.close();
    }
  }, 30_000);

  it('schedules the stale-reply sweep once for the installation, though the api and the worker both ask', async () => {
    const queue = new Queue('switchboard', { connection: { url: redisUrl }, prefix });
    try {
      const sweeps = async () =>
        (await queue.getJobSchedulers()).filter((s) => s.name === 'replies.sweep-stale');
      const deadline = Date.now() + 10_000;
      while ((await sweeps()).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(await sweeps()).toEqual([expect.objectContaining({ every: SWEEP_EVERY_MS })]);
    } finally {
      await queue.close();
    }
  });

  it('retries a 5xx with backoff, then reports the failure; a duplicate enqueue is one job', async () => {
    const user = await registerUser(api);
    const headers = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
    const tab = await connectSocket(api.baseUrl, user.accessToken);
    try {
      const agent = await request(api.http)
        .post('/api/agents')
        .set(headers)
        .send({ name: 'Flaky', webhook: `${hook.url}/500` })
        .expect(201);
      const sent = await request(api.http)
        .post('/api/messages')
        .set(headers)
        .send({ agentId: agent.body.id, content: 'fail please' })
        .expect(201);
      const messageId = sent.body.message.id as string;
      // The same job again (as a retried request might): BullMQ keeps one job per id.
      const queue = new Queue('switchboard', { connection: { url: redisUrl }, prefix });
      await queue.add('agent.reply', { messageId }, { jobId: `agent.reply-${messageId}` });
      await queue.close();
      const failed = await tab.waitFor<{ messageId: string; reason: string }>(
        'agent.reply_failed',
        undefined,
        20_000,
      );
      expect(failed).toMatchObject({ messageId, reason: 'Webhook response error: 500' });
      expect(hook.requests.filter((r) => r.path === '/500')).toHaveLength(3);
    } finally {
      tab.close();
    }
  }, 30_000);
});
