import type { AppConfig } from '../../config/app-config';
import { ReplyStopBus, StopSignal } from './reply-stop.bus';

describe('the stop signal', () => {
  it('calls each listener once, in order, when stopped, and none that was removed or came late', () => {
    const signal = new StopSignal();
    const calls: string[] = [];
    const first = () => calls.push('first');
    const removed = () => calls.push('removed');
    signal.addEventListener('abort', first);
    signal.addEventListener('abort', first);
    signal.addEventListener('abort', removed);
    signal.addEventListener('abort', () => calls.push('second'));
    signal.removeEventListener('abort', removed);
    expect(signal.aborted).toBe(false);
    signal.abort();
    signal.abort();
    signal.addEventListener('abort', () => calls.push('late'));
    expect(signal.aborted).toBe(true);
    expect(calls).toEqual(['first', 'second']);
  });

  it('is aborted by a stop of its message only, until released', async () => {
    const bus = new ReplyStopBus({ redisUrl: null } as unknown as AppConfig);
    const one = bus.register('m1');
    const other = bus.register('m2');
    await bus.stop('m1');
    expect([one.signal.aborted, other.signal.aborted]).toEqual([true, false]);
    other.release();
    await bus.stop('m2');
    expect(other.signal.aborted).toBe(false);
  });
});
