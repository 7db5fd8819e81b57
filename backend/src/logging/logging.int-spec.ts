import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Redis } from 'ioredis';
import request from 'supertest';
import { registerUser, type TestApp, testDatabaseUrl } from '../../test/app.test-util';
import { buildBackendOnce, freePort } from '../../test/processes.test-util';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';
import { createApp } from '../bootstrap';
import { loadConfig } from '../config/app-config';
import { JobQueue } from '../queue/job-queue';
import { createLogger } from './logger';

// JSON logs with a request id that follows a message into its job and its webhook call.
const ROOT = resolve(__dirname, '..', '..', '..');
const redisUrl = process.env.REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;
const SECRET = 'logging-test-secret-that-is-long-enough-0000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type LogLine = Record<string, unknown> & { level: string; msg?: string };

/** Everything a logger wrote, as text and as parsed JSON lines. */
class CapturedLog {
  text = '';
  write(chunk: string): void {
    this.text += chunk;
  }
  lines(): LogLine[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
  }
  accessLines(requestId: string): LogLine[] {
    return this.lines().filter((l) => l.requestId === requestId && typeof l.status === 'number');
  }
}

/** The api in this process, its logs written to `log` at the config's LOG_LEVEL. */
async function startApi(env: NodeJS.ProcessEnv, log: CapturedLog): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-logging-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, RATE_LIMIT_SCALE: '100', ...env }),
    databaseUrl: testDatabaseUrl(),
  };
  const app: INestApplication = await createApp(config, { logger: createLogger(config.logLevel, log) });
  await app.listen(0, '127.0.0.1');
  const http = app.getHttpServer() as Server;
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    http,
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    drain: () => app.get(JobQueue).drain(),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

function spawnBuilt(entry: 'main.js' | 'worker.js', env: NodeJS.ProcessEnv): Proc {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, [join(ROOT, 'backend', 'dist', entry)], {
    env: {
      ...process.env,
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-logging-proc-')),
      JWT_SECRET: SECRET,
      LOG_LEVEL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(proc: Proc | undefined): Promise<void> {
  if (!proc || proc.child.exitCode !== null) return;
  const exited = new Promise((r) => proc.child.once('exit', r));
  proc.child.kill('SIGTERM');
  await exited;
}

function jsonLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      // Every line a process writes to stdout is JSON: no banner, no colours.
      expect(line).not.toContain('\u001b[');
      return JSON.parse(line) as LogLine;
    });
}

describeWithRedis('JSON logs, request ids and the access log', () => {
  const prefix = `sblog${process.pid}${Date.now()}`;
  const log = new CapturedLog();
  let api: TestApp;
  let hook: FakeWebhook;
  let worker: Proc;

  beforeAll(async () => {
    buildBackendOnce(ROOT);
    hook = await startFakeWebhook();
    const env = {
      REDIS_URL: redisUrl,
      BULLMQ_PREFIX: prefix,
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '5000',
    };
    api = await startApi({ ...env, PROCESS_ROLE: 'api', LOG_LEVEL: 'info' }, log);
    worker = spawnBuilt('worker.js', env);
    await until('the worker', () => worker.stdout().includes('Worker started'));
  }, 120_000);

  afterAll(async () => {
    await stop(worker);
    await api?.close();
    await hook?.close();
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('writes one JSON access line per request, with the id the response header carries', async () => {
    const res = await request(api.http).get('/api/auth/providers').expect(200);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(UUID);
    const lines = log.accessLines(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/auth/providers',
      status: 200,
      msg: 'GET /api/auth/providers 200',
    });
    expect(typeof lines[0].durationMs).toBe('number');
    expect(typeof lines[0].time).toBe('string');
  });

  it('reuses a sane incoming X-Request-Id and replaces any other', async () => {
    const kept = await request(api.http).get('/api/auth/providers').set('X-Request-Id', 'lb-Trace_42.7');
    expect(kept.headers['x-request-id']).toBe('lb-Trace_42.7');
    expect(log.accessLines('lb-Trace_42.7')).toHaveLength(1);

    for (const bad of ['has spaces', 'quote"and{brace}', 'x'.repeat(65), '']) {
      const res = await request(api.http).get('/api/auth/providers').set('X-Request-Id', bad);
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(UUID);
      expect(log.accessLines(id)).toHaveLength(1);
    }
    expect(log.text).not.toContain('quote\\"and{brace}');
    expect(log.text).not.toContain('x'.repeat(65));
  });

  it('never writes query strings, credentials or bodies', async () => {
    const lookup = await request(api.http).get('/api/invitations/lookup?token=secret-token-4242&x=1');
    const id = lookup.headers['x-request-id'] as string;
    expect(log.accessLines(id)).toEqual([
      expect.objectContaining({ path: '/api/invitations/lookup', status: lookup.status }),
    ]);
    await request(api.http)
      .post('/api/auth/login')
      .set('Cookie', 'sb_refresh=cookie-secret-777')
      .send({ email: 'nobody@example.com', password: 'password-secret-999' });
    const user = await registerUser(api, { password: 'registration-password-555' });
    const me = await request(api.http).get('/api/me').set('Authorization', `Bearer ${user.accessToken}`);
    // Signed-in requests name their user.
    expect(log.accessLines(me.headers['x-request-id'] as string)).toEqual([
      expect.objectContaining({ path: '/api/me', status: 200, userId: user.userId }),
    ]);
    for (const secret of [
      'secret-token-4242',
      'cookie-secret-777',
      'password-secret-999',
      'registration-password-555',
      user.accessToken,
      user.refreshCookie.split('=')[1],
    ])
      expect(log.text).not.toContain(secret);
  });

  it('keeps probes and scrapers below info', async () => {
    const live = await request(api.http).get('/api/health/live').expect(200);
    expect(log.accessLines(live.headers['x-request-id'] as string)).toHaveLength(0);
  });

  it('carries the request id of a message into its job, the worker’s logs and the webhook call', async () => {
    const user = await registerUser(api);
    const headers = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
    const agent = await request(api.http)
      .post('/api/agents')
      .set(headers)
      .send({ name: 'Echo', webhook: `${hook.url}/ok` })
      .expect(201);
    const sent = await request(api.http)
      .post('/api/messages')
      .set(headers)
      .send({ agentId: agent.body.id, content: 'trace me' })
      .expect(201);
    const id = sent.headers['x-request-id'] as string;
    expect(id).toMatch(UUID);
    expect(log.accessLines(id)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/messages', status: 201, userId: user.userId }),
    ]);

    await until('the webhook call', () => hook.requests.some((r) => r.body.includes('trace me')));
    const call = hook.requests.find((r) => r.body.includes('trace me'));
    expect(call?.headers['x-request-id']).toBe(id);
    // The job id is still the message id: a second enqueue of the same reply stays a no-op.
    expect(call?.headers['webhook-id']).toBe(sent.body.message.id);

    await until('the worker’s line', () => worker.stdout().includes(`"requestId":"${id}"`));
    const jobLines = jsonLines(worker.stdout()).filter((l) => l.requestId === id);
    expect(jobLines).toContainEqual(
      expect.objectContaining({
        level: 'info',
        job: 'agent.reply',
        jobId: `agent.reply-${sent.body.message.id as string}`,
        msg: expect.stringMatching(/^Job agent\.reply completed in \d+ ms$/) as unknown,
      }),
    );
  });
});

describe('the built api process', () => {
  let api: Proc | undefined;

  beforeAll(() => buildBackendOnce(ROOT), 120_000);
  afterEach(() => stop(api));

  it('at LOG_LEVEL=warn writes JSON only, and no access line', async () => {
    const port = await freePort();
    api = spawnBuilt('main.js', { PORT: String(port), LOG_LEVEL: 'warn', REDIS_URL: '' });
    const url = `http://127.0.0.1:${port}`;
    await until('the api', () =>
      fetch(`${url}/api/health/live`).then(
        (r) => r.ok,
        () => false,
      ),
    );
    const res = await fetch(`${url}/api/auth/providers`);
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id') as string;
    expect(id).toMatch(UUID);
    await new Promise((r) => setTimeout(r, 300));
    const lines = jsonLines(api.stdout());
    expect(lines.filter((l) => l.requestId === id)).toEqual([]);
    expect(lines.every((l) => l.level === 'warn' || l.level === 'error' || l.level === 'fatal')).toBe(true);
  }, 60_000);

  it('refuses a bad LOG_LEVEL at start with a readable message', async () => {
    api = spawnBuilt('main.js', { LOG_LEVEL: 'loud' });
    const code = await new Promise((r) => api?.child.once('exit', r));
    expect(code).toBe(1);
    expect(api.stderr().trim()).toBe(
      'Configuration error: LOG_LEVEL must be one of debug, info, warn, error, got "loud"',
    );
  }, 30_000);
});
