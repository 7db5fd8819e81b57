import { InlineJobQueue } from './inline-job-queue';
import type { JobRegistry } from './job-registry';

describe('InlineJobQueue.repeat', () => {
  afterEach(() => jest.useRealTimers());

  it('runs the job each interval until shutdown, one try per turn', async () => {
    // The job yields with setImmediate before it runs: keep that one real.
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const runs: Array<{ attempt: number; maxAttempts: number }> = [];
    const registry = {
      get: () => (_data: unknown, meta: { attempt: number; maxAttempts: number }) => {
        runs.push(meta);
        return Promise.resolve();
      },
    } as unknown as JobRegistry;
    const queue = new InlineJobQueue(registry);
    await queue.repeat('replies.sweep-stale', {}, 1000);
    expect(runs).toHaveLength(0);
    for (let turn = 0; turn < 3; turn++) {
      jest.advanceTimersByTime(1000);
      await queue.drain();
    }
    expect(runs).toEqual([
      { attempt: 1, maxAttempts: 1 },
      { attempt: 1, maxAttempts: 1 },
      { attempt: 1, maxAttempts: 1 },
    ]);
    await queue.onApplicationShutdown();
    jest.advanceTimersByTime(5000);
    await queue.drain();
    expect(runs).toHaveLength(3);
  });
});
