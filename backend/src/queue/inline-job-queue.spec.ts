import { InlineJobQueue } from './inline-job-queue';
import type { JobRegistry } from './job-registry';
import type { JobMeta } from './job-types';

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

describe('InlineJobQueue.enqueue', () => {
  afterEach(() => jest.useRealTimers());

  it('hands what was prefetched to the first attempt only: a retry reads afresh', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const runs: JobMeta[] = [];
    const registry = {
      get: () => (_data: unknown, meta: JobMeta) => {
        runs.push(meta);
        return Promise.reject(new Error('try again'));
      },
    } as unknown as JobRegistry;
    const queue = new InlineJobQueue(registry);
    const prefetched = { read: 'by the caller' };
    await queue.enqueue('agent.reply', { messageId: 'm1' }, { jobId: 'm1', attempts: 2, prefetched });
    const drained = queue.drain();
    // The first attempt runs after a setImmediate; the second after its backoff.
    await new Promise((resolve) => setImmediate(resolve));
    await jest.advanceTimersByTimeAsync(1000);
    await drained;
    expect(runs).toEqual([
      { attempt: 1, maxAttempts: 2, jobId: 'm1', prefetched },
      { attempt: 2, maxAttempts: 2, jobId: 'm1' },
    ]);
  });
});
