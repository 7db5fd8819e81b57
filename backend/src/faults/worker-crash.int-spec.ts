import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, registerUser, type TestApp, testDatabaseUrl } from '../../test/app.test-util';
import {
  startRedisServer,
  type RedisServer,
  buildBackendOnce,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';

// A worker killed (-9) with replies in flight. Another worker takes them over within
// ~15 s (BullMQ lock 10 s, stall check 5 s), and each message gets exactly one stored reply.
const ROOT = resolve(__dirname, '..', '..', '..');
const SECRET = 'worker-crash-secret-that-is-long-enough-00';
const MESSAGES = 10;

describeWithRedisServer('a worker killed with replies in flight', () => {
  let redis: RedisServer;
  let hook: FakeWebhook;
  let api: TestApp;
  const workers: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;

  const startWorker = async (): Promise<ChildProcess> => {
    let log = '';
    const worker = spawn(process.execPath, [join(ROOT, 'backend', 'dist', 'worker.js')], {
      env: { ...process.env, ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-crash-worker-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    worker.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    workers.push(worker);
    const deadline = Date.now() + 30_000;
    while (!log.includes('Worker started')) {
      if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`worker did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return worker;
  };

  beforeAll(async () => {
    buildBackendOnce(ROOT);
    redis = await startRedisServer(REDIS_SERVER as string);
    hook = await startFakeWebhook({
      // Slow enough that the first worker is mid-call when it dies.
      '/slow2': (_req: IncomingMessage, res: ServerResponse, body: string) => {
        setTimeout(() => {
          if (res.destroyed) return;
          const { message } = JSON.parse(body) as { message: string };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ output: `answer to ${message}` }]));
        }, 2000).unref();
      },
    });
    env = {
      REDIS_URL: redis.url,
      BULLMQ_PREFIX: `crash${process.pid}`,
      JWT_SECRET: SECRET,
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '10000',
      DATABASE_URL: testDatabaseUrl(),
    };
    api = await createTestApp({ ...env, PROCESS_ROLE: 'api' });
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await api?.close();
    await hook?.close();
    await redis?.stop();
  });

  it('recovers the jobs within about 15 s and stores one reply per message', async () => {
    const first = await startWorker();
    const user = await registerUser(api);
    const auth = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
    const agent = await request(api.http)
      .post('/api/agents')
      .set(auth)
      .send({ name: 'Slow', webhook: `${hook.url}/slow2` })
      .expect(201);
    const ids: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const res = await request(api.http)
        .post('/api/messages')
        .set(auth)
        .send({ agentId: agent.body.id, content: `question ${i}` })
        .expect(201);
      ids.push(res.body.message.id as string);
    }
    // Every job is running (the webhook has them all), none answered yet: kill the worker.
    const deadline = Date.now() + 10_000;
    while (hook.requests.filter((r) => r.path === '/slow2').length < MESSAGES && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    first.kill('SIGKILL');
    const killedAt = Date.now();
    await startWorker();

    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const answered = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM messages WHERE reply_to = ANY($1) AND sender_type = 'agent'`,
              [ids],
            )
          ).rows[0].n,
        );
      while ((await answered()) < MESSAGES && Date.now() - killedAt < 40_000)
        await new Promise((r) => setTimeout(r, 200));
      const recoveryMs = Date.now() - killedAt;
      expect(await answered()).toBe(MESSAGES);
      const perMessage = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM messages WHERE reply_to = ANY($1) GROUP BY reply_to`,
        [ids],
      );
      expect(perMessage.rows.map((r) => Number(r.n))).toEqual(Array(MESSAGES).fill(1));
      expect(recoveryMs).toBeLessThan(20_000);
      process.stdout.write(
        `[faults] worker kill -9: ${MESSAGES} in flight, ${MESSAGES} answered once, recovered in ${recoveryMs} ms; ${hook.requests.length} webhook calls\n`,
      );
    } finally {
      await db.end();
    }
  }, 90_000);
});
