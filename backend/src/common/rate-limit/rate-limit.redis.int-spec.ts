import { Redis } from 'ioredis';
import request from 'supertest';
import { createTestApp, type TestApp, uniqueEmail } from '../../../test/app.test-util';

const redisUrl = process.env.REDIS_URL;
// CI always sets REDIS_URL (.ci/run starts Redis).
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('rate limits shared by api nodes through Redis', () => {
  const prefix = `sbrate${process.pid}${Date.now()}`;
  let nodeA: TestApp;
  let nodeB: TestApp;

  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl, BULLMQ_PREFIX: prefix, PROCESS_ROLE: 'api', RATE_LIMIT_SCALE: '1' };
    nodeA = await createTestApp(env);
    nodeB = await createTestApp(env);
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('counts sign-in attempts for one email across nodes, not per node', async () => {
    const email = uniqueEmail('spread');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const node = i % 2 === 0 ? nodeA : nodeB;
      const res = await request(node.http)
        .post('/api/auth/login')
        .send({ email, password: `guess-${i}` });
      statuses.push(res.status);
    }
    // Ten attempts in all (five on each node) are allowed; per-node counting would allow twenty.
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const other = await request(nodeB.http)
      .post('/api/auth/login')
      .send({ email: uniqueEmail('fresh'), password: 'x' });
    expect(other.status).toBe(401);
  });
});
