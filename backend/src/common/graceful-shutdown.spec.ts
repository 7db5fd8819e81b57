import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  closeWithinLimitAndExit,
  requestsFinished,
  SHUTDOWN_LIMIT_MS,
  trackRequestsInFlight,
} from './graceful-shutdown';

describe('requests in flight (what a draining api node waits for)', () => {
  it('resolves at once with none, else when the last response closes', async () => {
    await requestsFinished();
    const a = new EventEmitter();
    const b = new EventEmitter();
    const next = jest.fn();
    trackRequestsInFlight({} as Request, a as unknown as Response, next);
    trackRequestsInFlight({} as Request, b as unknown as Response, next);
    expect(next).toHaveBeenCalledTimes(2);
    let done = false;
    const finished = requestsFinished().then(() => (done = true));
    a.emit('close');
    await Promise.resolve();
    expect(done).toBe(false);
    b.emit('close');
    await finished;
    expect(done).toBe(true);
  });
});

describe('closeWithinLimitAndExit', () => {
  const logger = new Logger('Test');
  let exit: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as () => never);
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('exits 0 as soon as everything is closed', async () => {
    await closeWithinLimitAndExit(logger, () => Promise.resolve());
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('exits 1 after the limit when something waits for ever (Redis unreachable, say), and says so', async () => {
    const done = closeWithinLimitAndExit(logger, () => new Promise<void>(() => undefined));
    await jest.advanceTimersByTimeAsync(SHUTDOWN_LIMIT_MS - 1);
    expect(exit).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await done;
    expect(exit).toHaveBeenCalledWith(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('not finished after 25 s'));
  });

  it('exits 1 when closing failed', async () => {
    await closeWithinLimitAndExit(logger, () => Promise.reject(new Error('boom')));
    expect(exit).toHaveBeenCalledWith(1);
  });
});
