import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { testDatabaseUrl, uniqueEmail } from '../../test/app.test-util';
import {
  buildBackendOnce,
  freePort,
  startRedisServer,
  type RedisServer,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';

// SIGTERM for an api node and a worker (processes of the built app). With everything up, a reply in
// flight is finished and stored before the worker exits. With Redis unreachable, both exit within the
// shutdown limit (25 s), so an orchestrator's stop never ends in SIGKILL: before, both waited for Redis
// for ever.
const ROOT = resolve(__dirname, '..', '..', '..');

interface Started {
  process: ChildProcess;
  log: () => string;
  exited: Promise<number | null>;
}

function spawnProcess(role: 'api' | 'worker', env: NodeJS.ProcessEnv): Started {
  let log = '';
  const child = spawn(
    process.execPath,
    [join(ROOT, 'backend', 'dist', role === 'api' ? 'main.js' : 'worker.js')],
    {
      env: {
        ...process.env,
        ...env,
        PROCESS_ROLE: role,
        DATA_DIR: mkdtempSync(join(tmpdir(), `sb-stop-${role}-`)),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { process: child, log: () => log, exited };
}

async function until(check: () => Promise<boolean> | boolean, started: Started, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline || started.process.exitCode !== null)
      throw new Error(`${what}: ${started.log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startPair(env: NodeJS.ProcessEnv): Promise<{ api: Started; worker: Started; url: string }> {
  const port = await freePort();
  const api = spawnProcess('api', { ...env, PORT: String(port) });
  const worker = spawnProcess('worker', env);
  const url = `http://127.0.0.1:${port}`;
  await until(
    () =>
      fetch(`${url}/api/health/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    api,
    'the api did not start',
  );
  await until(() => worker.log().includes('Worker started'), worker, 'the worker did not start');
  return { api, worker, url };
}

/** Seconds from `began` to the exit, or null when the process is still running after 30 s. */
async function exitWithin30s(
  started: Started,
  began: number,
): Promise<{ code: number | null; seconds: number } | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      started.exited.then((code) => ({ code, seconds: (Date.now() - began) / 1000 })),
      new Promise<null>((r) => (timer = setTimeout(() => r(null), 30_000))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function post<T>(url: string, body: object, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describeWithRedisServer('SIGTERM for api and worker processes', () => {
  let redis: RedisServer;
  let hook: FakeWebhook;
  let env: NodeJS.ProcessEnv;
  const started: Started[] = [];

  beforeAll(async () => {
    buildBackendOnce(ROOT);
    redis = await startRedisServer(REDIS_SERVER as string);
    hook = await startFakeWebhook({
      // Answers after 3 s: the worker is mid-call when it is told to stop.
      '/slow3': (_req: IncomingMessage, res: ServerResponse, body: string) => {
        setTimeout(() => {
          if (res.destroyed) return;
          const { message } = JSON.parse(body) as { message: string };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ output: `answer to ${message}` }]));
        }, 3000).unref();
      },
    });
    env = {
      DATABASE_URL: testDatabaseUrl(),
      REDIS_URL: redis.url,
      BULLMQ_PREFIX: `stop${process.pid}`,
      JWT_SECRET: 'shutdown-test-secret-that-is-long-enough-0',
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
    };
  }, 180_000);

  afterAll(async () => {
    for (const p of started) if (p.process.exitCode === null) p.process.kill('SIGKILL');
    await hook?.close();
    await redis?.stop();
  });

  it('with everything up, the worker finishes the reply in flight, stores it and exits 0', async () => {
    const { api, worker, url } = await startPair(env);
    started.push(api, worker);
    const { accessToken } = await post<{ accessToken: string }>(`${url}/api/auth/register`, {
      email: uniqueEmail('stop'),
      password: 'correct horse battery',
      fullName: 'Stop Test',
      companyName: 'Stop',
    });
    const me = (await (
      await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } })
    ).json()) as {
      companies: { id: string }[];
    };
    const auth = { authorization: `Bearer ${accessToken}`, 'x-company-id': me.companies[0].id };
    const agent = await post<{ id: string }>(
      `${url}/api/agents`,
      { name: 'Slow', webhook: `${hook.url}/slow3` },
      auth,
    );
    const sent = await post<{ message: { id: string } }>(
      `${url}/api/messages`,
      { agentId: agent.id, content: 'in flight' },
      auth,
    );
    const deadline = Date.now() + 10_000;
    while (!hook.requests.some((r) => r.path === '/slow3') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));

    const began = Date.now();
    worker.process.kill('SIGTERM');
    const exit = await exitWithin30s(worker, began);
    process.stdout.write(
      `[faults] SIGTERM to a worker with a reply in flight: ${exit ? `exited ${exit.code} after ${exit.seconds} s` : 'still running after 30 s'}\n`,
    );
    expect(exit?.code).toBe(0);
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const replies = await db.query<{ content: string }>(
        `SELECT content FROM messages WHERE reply_to = $1 AND sender_type = 'agent'`,
        [sent.message.id],
      );
      expect(replies.rows).toEqual([{ content: 'answer to in flight' }]);
    } finally {
      await db.end();
    }
    api.process.kill('SIGTERM');
    expect((await exitWithin30s(api, Date.now()))?.code).toBe(0);
  }, 120_000);

  it('with Redis unreachable, the api and the worker both exit within 30 s, and neither left before', async () => {
    const { api, worker } = await startPair(env);
    started.push(api, worker);

    await redis.stop();
    // Long enough for every client to notice (and for anything that gives up on Redis to do so).
    await new Promise((r) => setTimeout(r, 4000));
    expect([api.process.exitCode, worker.process.exitCode]).toEqual([null, null]);

    const began = Date.now();
    api.process.kill('SIGTERM');
    worker.process.kill('SIGTERM');
    const [apiExit, workerExit] = await Promise.all([
      exitWithin30s(api, began),
      exitWithin30s(worker, began),
    ]);
    const said = (exit: Awaited<ReturnType<typeof exitWithin30s>>) =>
      exit ? `exited ${exit.code} after ${exit.seconds} s` : 'still running after 30 s';
    process.stdout.write(
      `[faults] SIGTERM with Redis down: api ${said(apiExit)}, worker ${said(workerExit)}\n`,
    );
    if (!apiExit || !workerExit)
      process.stdout.write(`api log: ${api.log().slice(-2000)}\nworker log: ${worker.log().slice(-2000)}\n`);
    expect(apiExit).not.toBeNull();
    expect(workerExit).not.toBeNull();
  }, 120_000);
});
