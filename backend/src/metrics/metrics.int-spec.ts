import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createTestApp, registerUser, testDatabaseUrl, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { freePort } from '../../test/processes.test-util';
import { connectSocket, startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';
import { createApp } from '../bootstrap';
import { loadConfig } from '../config/app-config';
import { postWebhook } from '../webhooks/webhook-client';
import { WorkerModule } from '../worker.module';
import { MetricsHost } from './metrics.module';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, samples only. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const hits = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (!hits.length) return NaN;
  return hits.reduce((sum, s) => sum + s.value, 0);
}

/** The metrics text of a test app, from its METRICS_PORT. */
async function scrapeText(t: TestApp): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${t.config.metricsPort}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

async function scrape(t: TestApp): Promise<Sample[]> {
  return parse(await scrapeText(t));
}

describe('Prometheus metrics at /metrics', () => {
  let t: TestApp;
  let hook: FakeWebhook;
  beforeAll(async () => {
    hook = await startFakeWebhook();
    t = await createTestApp({
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '1000',
      METRICS_PORT: String(await freePort()),
    });
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  it('counts requests by route template, jobs, webhook calls, replies and sockets after some traffic', async () => {
    const user = await registerUser(t);
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      const agent = await request(t.http)
        .post('/api/agents')
        .set(as(user))
        .send({ name: 'Echo', webhook: `${hook.url}/ok` })
        .expect(201);
      const sent = await request(t.http)
        .post('/api/messages')
        .set(as(user))
        .send({ agentId: agent.body.id, content: 'count me' })
        .expect(201);
      const chatId = sent.body.chat.id as string;
      await t.drain();
      await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
      await request(t.http).get('/api/nope/at/all').expect(404);
      await request(t.http).get(`/api/chats/${chatId}`).expect(401);

      const text = await scrapeText(t);
      const m = parse(text);
      const http = 'switchboard_http_request_duration_seconds_count';
      expect(value(m, http, { method: 'POST', route: '/api/messages', status_class: '2xx' })).toBe(1);
      expect(value(m, http, { method: 'GET', route: '/api/chats/:id/messages', status_class: '2xx' })).toBe(
        1,
      );
      expect(value(m, http, { method: 'GET', route: '/api/chats/:id', status_class: '4xx' })).toBe(1);
      expect(
        value(m, http, { method: 'GET', route: 'unmatched', status_class: '4xx' }),
      ).toBeGreaterThanOrEqual(1);
      expect(value(m, http, { route: '/api/auth/register' })).toBeGreaterThanOrEqual(1);
      // Route templates, never raw URLs: no id reaches a label.
      expect(text).not.toContain(chatId);
      expect(text).not.toContain('/api/nope');
      const sum = value(m, 'switchboard_http_request_duration_seconds_sum', { route: '/api/messages' });
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(10);

      expect(value(m, 'switchboard_jobs_total', { job: 'agent.reply', outcome: 'completed' })).toBe(1);
      expect(value(m, 'switchboard_job_duration_seconds_count', { job: 'agent.reply' })).toBe(1);
      expect(value(m, 'switchboard_webhook_calls_total', { outcome: 'ok', status_class: '2xx' })).toBe(1);
      expect(value(m, 'switchboard_webhook_duration_seconds_count', { outcome: 'ok' })).toBe(1);
      expect(value(m, 'switchboard_replies_total', { outcome: 'replied' })).toBe(1);
      expect(value(m, 'switchboard_socketio_connected_sockets')).toBe(1);
      // Default process metrics.
      expect(value(m, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(value(m, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      // No queue depth without BullMQ.
      expect(value(m, 'switchboard_queue_jobs')).toBeNaN();
    } finally {
      tab.close();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(value(await scrape(t), 'switchboard_socketio_connected_sockets')).toBe(0);
  });

  it('records every webhook outcome by status class, and failed replies', async () => {
    const closed = await freePort();
    const allowed = new Set([hook.hostPort, `127.0.0.1:${closed}`]);
    const call = (path: string, url = `${hook.url}${path}`) =>
      postWebhook({ url, body: { message: 'x' }, id: 'm', timeoutMs: 300, allowedHosts: allowed });
    const before = await scrape(t);
    expect((await call('/500')).kind).toBe('http_error');
    expect((await call('/400')).kind).toBe('http_error');
    expect((await call('/slow')).kind).toBe('timeout');
    expect((await call('/huge')).kind).toBe('too_large');
    expect((await call('', 'http://10.1.2.3/hook')).kind).toBe('refused');
    expect((await call('', `http://127.0.0.1:${closed}/x`)).kind).toBe('network_error');
    const after = await scrape(t);
    const delta = (labels: Record<string, string>) =>
      value(after, 'switchboard_webhook_calls_total', labels) -
      (value(before, 'switchboard_webhook_calls_total', labels) || 0);
    expect(delta({ outcome: 'http_error', status_class: '5xx' })).toBe(1);
    expect(delta({ outcome: 'http_error', status_class: '4xx' })).toBe(1);
    expect(delta({ outcome: 'timeout', status_class: 'none' })).toBe(1);
    expect(delta({ outcome: 'too_large' })).toBe(1);
    expect(delta({ outcome: 'refused', status_class: 'none' })).toBe(1);
    expect(delta({ outcome: 'network_error', status_class: 'none' })).toBe(1);
    const slow = value(after, 'switchboard_webhook_duration_seconds_sum', { outcome: 'timeout' });
    expect(slow).toBeGreaterThanOrEqual(0.29);

    // A 4xx agent: the reply fails once, the job fails permanently.
    const user = await registerUser(t);
    const agent = await request(t.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: 'Broken', webhook: `${hook.url}/400` })
      .expect(201);
    await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: agent.body.id, content: 'fail' })
      .expect(201);
    await t.drain();
    const m = await scrape(t);
    expect(value(m, 'switchboard_replies_total', { outcome: 'failed' })).toBe(1);
    expect(value(m, 'switchboard_jobs_total', { job: 'agent.reply', outcome: 'failed_permanently' })).toBe(1);
  });

  it('is Prometheus text on GET only', async () => {
    const res = await fetch(`http://127.0.0.1:${t.config.metricsPort}/metrics`, { method: 'POST' });
    expect(res.status).toBe(404);
  });
});

// The metrics (Node version, traffic per route, webhook outcomes) are for the
// operator's scraper, never for whoever reaches the app's port.
describe('without METRICS_PORT, no metrics on the app port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers /metrics on PORT with a 404 (not the app page), signed in or not', async () => {
    expect(t.config.metricsPort).toBeUndefined();
    const user = await registerUser(t);
    for (const req of [
      request(t.http).get('/metrics'),
      request(t.http).get('/metrics').set(as(user)),
      request(t.http).head('/metrics'),
      request(t.http).post('/metrics'),
    ]) {
      const res = await req;
      expect(res.status).toBe(404);
      expect(res.text ?? '').not.toMatch(/nodejs_|switchboard_|<title>Switchboard/);
    }
  });
});

describe('METRICS_PORT moves /metrics to its own port', () => {
  it('serves metrics on METRICS_PORT only; /metrics on PORT is a 404, not the app page', async () => {
    const port = await freePort();
    const dist = mkdtempSync(join(tmpdir(), 'sb-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Switchboard</title>');
    const config = {
      ...loadConfig({
        DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-metrics-')),
        JWT_SECRET: 'x'.repeat(40),
        METRICS_PORT: String(port),
        HOST: '127.0.0.1',
      }),
      databaseUrl: testDatabaseUrl(),
      frontendDist: dist,
    };
    expect(config.metricsPort).toBe(port);
    const app = await createApp(config, { logger: false });
    await app.init();
    try {
      const http = app.getHttpServer() as Parameters<typeof request>[0];
      const onPort = await request(http).get('/metrics');
      expect(onPort.status).toBe(404);
      expect(onPort.text).not.toMatch(/<title>Switchboard/);
      await request(http).get('/api/health/live').expect(200);

      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const m = parse(await res.text());
      expect(value(m, 'switchboard_http_request_duration_seconds_count', { route: '/api/health/live' })).toBe(
        1,
      );
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      expect(app.get(MetricsHost).port).toBe(port);
    } finally {
      await app.close();
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('refuses a METRICS_PORT that is no port', () => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(40), METRICS_PORT: 'abc' })).toThrow(/METRICS_PORT/);
  });
});

const redisUrl = process.env.REDIS_URL;
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('with BullMQ: queue depth, and a worker on METRICS_PORT', () => {
  const prefix = `sbmetrics${process.pid}${Date.now()}`;
  afterAll(async () => {
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('reads waiting, active and delayed jobs when scraped; a worker process answers on its own port', async () => {
    const api = await createTestApp({
      REDIS_URL: redisUrl,
      BULLMQ_PREFIX: prefix,
      PROCESS_ROLE: 'api',
      METRICS_PORT: String(await freePort()),
    });
    let worker: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | null = null;
    try {
      const user = await registerUser(api);
      // No worker yet: the reply waits in the queue.
      await request(api.http)
        .post('/api/messages')
        .set(as(user))
        .send({ agentId: 'default-agent', content: 'queued' })
        .expect(201);
      let m = await scrape(api);
      expect(
        value(m, 'switchboard_queue_jobs', { queue: 'switchboard', state: 'waiting' }),
      ).toBeGreaterThanOrEqual(1);
      expect(value(m, 'switchboard_queue_jobs', { state: 'active' })).toBe(0);
      expect(value(m, 'switchboard_queue_jobs', { state: 'delayed' })).toBeGreaterThanOrEqual(0);
      // One registry per process: this test process's earlier replies are in it already.
      const repliedBefore = value(m, 'switchboard_replies_total', { outcome: 'replied' }) || 0;

      const port = await freePort();
      const config = loadConfig({
        DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-worker-')),
        JWT_SECRET: 'x'.repeat(40),
        REDIS_URL: redisUrl,
        BULLMQ_PREFIX: prefix,
        METRICS_PORT: String(port),
        HOST: '127.0.0.1',
        PROCESS_ROLE: 'worker',
      });
      worker = await NestFactory.createApplicationContext(
        WorkerModule.forRoot({ ...config, databaseUrl: testDatabaseUrl(), redisUrl: redisUrl as string }),
        { logger: false },
      );
      const deadline = Date.now() + 15_000;
      for (;;) {
        m = parse(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
        if (value(m, 'switchboard_replies_total', { outcome: 'replied' }) > repliedBefore) break;
        if (Date.now() > deadline) throw new Error('the worker ran no agent.reply');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(
        value(m, 'switchboard_jobs_total', { job: 'agent.reply', outcome: 'completed' }),
      ).toBeGreaterThanOrEqual(2);
      expect(value(m, 'switchboard_queue_jobs', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
      expect(value(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await worker?.close();
      await api.close();
    }
  }, 60_000);
});
