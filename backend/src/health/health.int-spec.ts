import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../bootstrap';
import { loadConfig } from '../config/app-config';
import { createTestApp, testDatabaseUrl, type TestApp } from '../../test/app.test-util';
import {
  startRedisServer,
  type RedisServer,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';

describe('health for load balancers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers live and ready with what it checked', async () => {
    await request(t.http).get('/api/health/live').expect(200, { status: 'ok' });
    await request(t.http)
      .get('/api/health/ready')
      .expect(200, { status: 'ok', checks: { database: 'up', queue: 'up' } });
  });

  it('answers 404 for unknown API and operator paths, never the app page', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'sb-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Switchboard</title>');
    const config = {
      ...loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-health-')), JWT_SECRET: 'x'.repeat(40) }),
      databaseUrl: testDatabaseUrl(),
      frontendDist: dist,
    };
    const app = await createApp(config, { logger: false });
    await app.init();
    try {
      const http = app.getHttpServer() as Parameters<typeof request>[0];
      await request(http)
        .get('/chat')
        .expect(200)
        .expect(/Switchboard/);
      for (const path of ['/metrics', '/healthz', '/readyz', '/livez', '/api/nope', '/api/health/nope']) {
        const res = await request(http).get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.text).not.toMatch(/<title>Switchboard/);
      }
    } finally {
      await app.close();
    }
  });
});

describeWithRedisServer('readiness follows Redis', () => {
  // Closing the app right after the outage once failed this suite with two stray "Connection is
  // closed." rejections: the Socket.IO adapter's unsubscribes sent to a subscriber dropped while its
  // publisher was still reconnecting (fixed in common/redis-client, tested there). One more run stays,
  // from a ready node, for the timing of an outage on a loaded machine.
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
  let redis: RedisServer;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startRedisServer(REDIS_SERVER as string);
    t = await createTestApp({ REDIS_URL: redis.url, BULLMQ_PREFIX: `health${process.pid}` });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  async function readyStatusWithin(ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await request(t.http).get('/api/health/ready')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    return status;
  }

  it('is 503 while Redis is away and 200 again when it is back; live stays 200', async () => {
    expect(await readyStatusWithin(15_000)).toBe(200);
    await redis.stop();
    try {
      const down = await request(t.http).get('/api/health/ready').expect(503);
      expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'up', queue: 'down' } });
      await request(t.http).get('/api/health/live').expect(200);
    } finally {
      await redis.start();
    }
    expect(await readyStatusWithin(15_000)).toBe(200);
  }, 40_000);
});
