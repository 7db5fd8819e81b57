import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { testDatabaseUrl } from '../../test/app.test-util';
import {
  freePort,
  startRedisServer,
  type RedisServer,
  buildBackendOnce,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';

// An api node and a worker on their own redis-server, which is stopped for 15 s
// and comes back empty (a restart without persistence: every queued job is gone).
const ROOT = resolve(__dirname, '..', '..', '..');
const SECRET = 'fault-test-secret-that-is-long-enough-0000';

interface Node {
  process: ChildProcess;
  log: string[];
}

function startNode(entry: 'main.js' | 'worker.js', env: NodeJS.ProcessEnv): Node {
  const node: Node = {
    process: spawn(process.execPath, [join(ROOT, 'backend', 'dist', entry)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    log: [],
  };
  node.process.stdout?.on('data', (d: Buffer) => node.log.push(d.toString()));
  node.process.stderr?.on('data', (d: Buffer) => node.log.push(d.toString()));
  return node;
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describeWithRedisServer('Redis down for 15 s, then back empty', () => {
  let redis: RedisServer;
  let hook: FakeWebhook;
  let api: Node;
  let worker: Node;
  let base: string;
  let db: Client;

  beforeAll(async () => {
    buildBackendOnce(ROOT);
    redis = await startRedisServer(REDIS_SERVER as string);
    hook = await startFakeWebhook();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: testDatabaseUrl(),
      REDIS_URL: redis.url,
      BULLMQ_PREFIX: `fault${process.pid}`,
      JWT_SECRET: SECRET,
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '3000',
      RATE_LIMIT_SCALE: '100',
    };
    api = startNode('main.js', {
      ...env,
      PORT: String(port),
      PROCESS_ROLE: 'api',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-fault-api-')),
    });
    worker = startNode('worker.js', { ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-fault-worker-')) });
    await waitFor('the api', async () => (await fetch(`${base}/api/health`)).ok, 60_000);
    await waitFor(
      'the worker',
      () => Promise.resolve(worker.log.join('').includes('Worker started')),
      60_000,
    );
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    for (const node of [api, worker]) node?.process.kill('SIGKILL');
    await db?.end();
    await hook?.close();
    await redis?.stop();
  });

  const repliesTo = async (messageId: string): Promise<number> => {
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM messages WHERE reply_to = $1 AND sender_type = 'agent'`,
      [messageId],
    );
    return Number(rows[0].n);
  };

  it('keeps both processes running, stores what is sent meanwhile and answers each message exactly once after', async () => {
    const email = `fault-${process.pid}-${Date.now()}@example.com`;
    const signedUp = await request(base)
      .post('/api/auth/register')
      .send({ email, password: 'correct horse battery', fullName: 'Fay Ult', companyName: 'Faults' })
      .expect(201);
    const auth = {
      Authorization: `Bearer ${signedUp.body.accessToken as string}`,
      'X-Company-Id': (
        (
          await request(base)
            .get('/api/me')
            .set('Authorization', `Bearer ${signedUp.body.accessToken as string}`)
            .expect(200)
        ).body as { companies: Array<{ id: string }> }
      ).companies[0].id,
    };
    const agent = await request(base)
      .post('/api/agents')
      .set(auth)
      .send({ name: 'Echo', webhook: `${hook.url}/ok` })
      .expect(201);
    const send = (content: string) =>
      request(base).post('/api/messages').set(auth).send({ agentId: agent.body.id, content });

    const before = await send('before the outage').expect(201);
    await waitFor('the first reply', async () => (await repliesTo(before.body.message.id)) === 1, 20_000);

    await redis.stop();
    const outageStarted = Date.now();
    const during: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send(`during the outage ${i}`);
      expect(res.status).toBe(201);
      during.push(res.body.message.id as string);
    }
    // Sign-in needs Redis (its rate limits are counted there): a readable 503, not a hang or a 500.
    const signIn = await request(base)
      .post('/api/auth/login')
      .send({ email, password: 'correct horse battery' });
    expect(signIn.status).toBe(503);
    expect(signIn.body.message).toBe('The service is busy. Please try again in a moment.');
    while (Date.now() - outageStarted < 15_000) {
      expect(api.process.exitCode).toBeNull();
      expect(worker.process.exitCode).toBeNull();
      await new Promise((r) => setTimeout(r, 500));
    }

    await redis.start(); // empty: the jobs queued before the outage are gone
    const backAt = Date.now();
    for (const id of during)
      await waitFor(`a reply to ${id}`, async () => (await repliesTo(id)) >= 1, 60_000);
    const recoveryMs = Date.now() - backAt;
    await new Promise((r) => setTimeout(r, 2000));
    for (const id of [before.body.message.id as string, ...during]) expect(await repliesTo(id)).toBe(1);
    expect(api.process.exitCode).toBeNull();
    expect(worker.process.exitCode).toBeNull();
    const logs = [...api.log, ...worker.log].join('');
    expect(logs).not.toMatch(/Unhandled error event|Unhandled rejection/);
    process.stdout.write(
      `[faults] redis down 15 s: 3 sent, 3 stored, 3 answered once, recovery ${recoveryMs} ms\n`,
    );
  }, 150_000);
});
