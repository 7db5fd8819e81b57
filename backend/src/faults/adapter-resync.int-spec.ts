import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import {
  startRedisServer,
  type RedisServer,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';
import { connectSocket } from '../../test/realtime.test-util';

// Events published while a node's Redis subscriber was away never reach its clients.
// When the subscriber is back, the node's sockets are sent to reconnect, and a client that reconnects
// without recovery fetches what it missed (the client's resync by cursor).

describeWithRedisServer('a Redis blip on an api node', () => {
  let redis: RedisServer;
  let node: TestApp;

  beforeAll(async () => {
    redis = await startRedisServer(REDIS_SERVER as string);
    node = await createTestApp({ REDIS_URL: redis.url, BULLMQ_PREFIX: `resync${process.pid}` });
  });
  afterAll(async () => {
    await node?.close();
    await redis?.stop();
  });

  it("sends the node's sockets to reconnect once its subscriber is back", async () => {
    const user = await registerUser(node);
    const log = await connectSocket(node.baseUrl, user.accessToken);
    try {
      const reasons: string[] = [];
      log.socket.on('disconnect', (reason) => reasons.push(reason));
      await redis.stop();
      await new Promise((r) => setTimeout(r, 2000));
      // The blip alone does not drop the client's connection to the node.
      expect(reasons).toEqual([]);
      await redis.start();
      const deadline = Date.now() + 15_000;
      while (!reasons.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(reasons).toEqual(['transport close']);
    } finally {
      log.close();
    }
  }, 40_000);
});
