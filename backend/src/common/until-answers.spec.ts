import { untilAnswers } from './until-answers';

const away = Object.assign(new Error('connect ECONNREFUSED'), { outage: true });
const isOutage = (error: unknown) => (error as { outage?: boolean }).outage === true;

/** Work that fails with `away` the first `failures` times, then answers. */
function answersAfter(failures: number): { work: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    work: () => (++calls > failures ? Promise.resolve('done') : Promise.reject(away)),
    calls: () => calls,
  };
}

describe('untilAnswers', () => {
  it('tries again while the service is away, 0.25 s then doubling, and returns its answer', async () => {
    const { work, calls } = answersAfter(2);
    const outages: unknown[] = [];
    const started = Date.now();
    await expect(
      untilAnswers(work, {
        isOutage,
        giveUpAfterMs: 10_000,
        maxDelayMs: 5000,
        onOutage: (e) => outages.push(e),
      }),
    ).resolves.toBe('done');
    expect(calls()).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700); // 250 + 500
    expect(outages).toEqual([away]); // told once, not at every try
  });

  it('throws at once a failure that is not an outage', async () => {
    const wrong = new Error('AccessDenied');
    let calls = 0;
    const work = () => {
      calls++;
      return Promise.reject(wrong);
    };
    await expect(untilAnswers(work, { isOutage, giveUpAfterMs: 10_000, maxDelayMs: 5000 })).rejects.toBe(
      wrong,
    );
    expect(calls).toBe(1);
  });

  it('gives up after its limit with the last failure', async () => {
    const { work, calls } = answersAfter(Infinity);
    const started = Date.now();
    await expect(untilAnswers(work, { isOutage, giveUpAfterMs: 600, maxDelayMs: 250 })).rejects.toBe(away);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(calls()).toBeGreaterThanOrEqual(3);
  });

  it('stops waiting the moment its signal is aborted (a shutdown is not delayed)', async () => {
    const { work, calls } = answersAfter(Infinity);
    const stop = new AbortController();
    const retrying = untilAnswers(work, {
      isOutage,
      giveUpAfterMs: 24 * 60 * 60 * 1000,
      maxDelayMs: 60_000,
      signal: stop.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // past 0.25 + 0.5 s: now waiting 1 s
    const callsBefore = calls();
    const stopped = Date.now();
    stop.abort();
    await expect(retrying).rejects.toBe(away);
    expect(Date.now() - stopped).toBeLessThan(50);
    expect(calls()).toBe(callsBefore);
  });

  it('does not try again once `stopping` says the process is shutting down', async () => {
    const { work, calls } = answersAfter(Infinity);
    await expect(
      untilAnswers(work, { isOutage, giveUpAfterMs: 10_000, maxDelayMs: 250, stopping: () => true }),
    ).rejects.toBe(away);
    expect(calls()).toBe(1);
  });
});
