import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { testDatabaseUrl } from '../../test/app.test-util';
import {
  buildBackendOnce,
  freePort,
  startRedisServer,
  type RedisServer,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';

// The message quotas' counters live in Redis: with it away an api node neither fails nor refuses
// everyone, it counts from PostgreSQL (and says so in its log); back empty, its counters start again
// from PostgreSQL's count, so what was sent meanwhile still counts.
const ROOT = resolve(__dirname, '..', '..', '..');

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describeWithRedisServer('message quotas while Redis is away', () => {
  let redis: RedisServer;
  let api: ChildProcess;
  const log: string[] = [];
  let base: string;
  let db: Client;

  beforeAll(async () => {
    buildBackendOnce(ROOT);
    redis = await startRedisServer(REDIS_SERVER as string);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = spawn(process.execPath, [join(ROOT, 'backend', 'dist', 'main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: testDatabaseUrl(),
        REDIS_URL: redis.url,
        BULLMQ_PREFIX: `quotafault${process.pid}`,
        JWT_SECRET: 'quota-fault-secret-that-is-long-enough-00',
        RATE_LIMIT_SCALE: '100',
        PORT: String(port),
        PROCESS_ROLE: 'api',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-quota-fault-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
    api.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
    await waitFor('the api', async () => (await fetch(`${base}/api/health`)).ok, 60_000);
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    api?.kill('SIGKILL');
    await db?.end();
    await redis?.stop();
  });

  async function signUp(): Promise<{ auth: Record<string, string>; userId: string; companyId: string }> {
    const email = `quota-fault-${process.pid}-${Date.now()}-${Math.random()}@example.com`;
    const res = await request(base)
      .post('/api/auth/register')
      .send({ email, password: 'correct horse battery', fullName: 'Quo Ta', companyName: 'Quotas' })
      .expect(201);
    const token = res.body.accessToken as string;
    const me = (await request(base).get('/api/me').set('Authorization', `Bearer ${token}`).expect(200))
      .body as { user: { id: string }; companies: Array<{ id: string }> };
    return {
      auth: { Authorization: `Bearer ${token}`, 'X-Company-Id': me.companies[0].id },
      userId: me.user.id,
      companyId: me.companies[0].id,
    };
  }

  const stored = async (userId: string): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN chats c ON c.id = m.chat_id
        WHERE c.user_id = $1 AND m.sender_type = 'user'`,
      [userId],
    );
    return rows[0].n;
  };

  it('counts from PostgreSQL while Redis is away, and from its count again once Redis is back empty', async () => {
    const admin = await signUp();
    await db.query('UPDATE profiles SET is_superadmin = true WHERE id = $1', [admin.userId]);
    const owner = await signUp();
    const { Authorization } = admin.auth;
    await request(base)
      .patch(`/api/admin/companies/${owner.companyId}/quotas`)
      .set({ Authorization })
      .send({ messagesPerUserPerDay: 4 })
      .expect(200);
    const send = (content: string) =>
      request(base).post('/api/messages').set(owner.auth).send({ agentId: 'default-agent', content });
    await send('with Redis').expect(201);

    await redis.stop();
    for (let i = 1; i <= 3; i++) expect((await send(`Redis away ${i}`)).status).toBe(201);
    const over = await send('Redis away, one too many');
    expect(over.status).toBe(429);
    expect(over.body.message).toContain('limit of 4 messages per user per day');
    expect(await stored(owner.userId)).toBe(4);
    expect(log.join('')).toContain('Message quotas counted from PostgreSQL while Redis is away');
    expect(api.exitCode).toBeNull();

    // Back, and empty: the counter starts from the 4 PostgreSQL has (not from 0, nor the 1 it had).
    await redis.start();
    await waitFor(
      'the counters in Redis again',
      async () =>
        (await send('Redis back')).status === 429 &&
        log.join('').includes('Message quotas are counted in Redis again'),
      20_000,
    );
    expect((await send('Redis back, over')).status).toBe(429);
    expect(await stored(owner.userId)).toBe(4);
    expect(api.exitCode).toBeNull();
    expect(log.join('')).not.toMatch(/Unhandled error event|Unhandled rejection/);
  }, 90_000);
});
