import { Logger } from '@nestjs/common';
import {
  startRedisServer,
  type RedisServer,
  REDIS_SERVER,
  describeWithRedisServer,
} from '../../test/processes.test-util';
import { closeRedisClient, createRedisClient, dropRedisClient, logFailedPublishes } from './redis-client';

/**
 * A client closed by hand rejects what it still has pending, and what is sent to it afterwards, with
 * "Connection is closed.". Some senders keep no handler on those commands (socket.io's Redis adapter
 * and emitter publish and unsubscribe without one; ioredis re-subscribes a subscriber that way after a
 * reconnect): each was a stray rejection, which fails whatever Jest suite runs then and is logged by a
 * process. Seen in CI twice, when an app closed while its Socket.IO adapter's clients were half back
 * after a Redis outage, and when two apps closed while publishing.
 */
describeWithRedisServer('closing a Redis client with commands nobody waits for', () => {
  let redis: RedisServer;
  const stray: unknown[] = [];
  const onStray = (reason: unknown) => stray.push(reason);
  beforeAll(async () => {
    redis = await startRedisServer(REDIS_SERVER as string);
    process.on('unhandledRejection', onStray);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onStray);
    await redis?.stop();
  });
  beforeEach(() => {
    stray.length = 0;
  });

  async function settle(): Promise<void> {
    await new Promise((r) => setTimeout(r, 300));
  }

  it('takes commands sent after the drop (socket.io adapter closing: unsubscribe, no handler) quietly', async () => {
    const client = createRedisClient(redis.url, 'test subscriber', { maxRetriesPerRequest: null });
    await client.subscribe('a', 'b');
    await client.psubscribe('c*');
    dropRedisClient(client);
    void client.punsubscribe('c*');
    void client.unsubscribe('a', 'b');
    await settle();
    expect(client.status).toBe('end');
    expect(stray).toEqual([]);
  });

  it('quits an auto-pipelined client after publishing what was sent in the same tick', async () => {
    const listener = createRedisClient(redis.url, 'test listener');
    const heard: string[] = [];
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe('x');
    const client = createRedisClient(redis.url, 'test publisher', {
      maxRetriesPerRequest: null,
      enableAutoPipelining: true,
    });
    await client.ping();
    // Batched for the next turn of the event loop, with no handler: how socket.io's adapter publishes.
    void client.publish('x', 'the last event');
    await closeRedisClient(client);
    await settle();
    await closeRedisClient(listener);
    expect(client.status).toBe('end');
    expect(heard).toEqual(['the last event']);
    expect(stray).toEqual([]);
  });

  it('logs a publish lost when the connection is dropped (socket.io adapter and emitter clients)', async () => {
    const client = logFailedPublishes(
      createRedisClient(redis.url, 'test publisher', {
        maxRetriesPerRequest: null,
        enableAutoPipelining: true,
      }),
      'test publisher',
    );
    await client.ping();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      void client.publish('x', 'never sent');
      dropRedisClient(client);
      await settle();
      expect(stray).toEqual([]);
      expect(warn).toHaveBeenCalledWith('test publisher: an event was not published (Connection is closed.)');
    } finally {
      warn.mockRestore();
    }
  });

  it('still rejects the commands whose callers wait for them', async () => {
    const client = createRedisClient(redis.url, 'test client', { maxRetriesPerRequest: null });
    await client.ping();
    dropRedisClient(client);
    await expect(client.get('k')).rejects.toThrow('Connection is closed.');
  });
});
