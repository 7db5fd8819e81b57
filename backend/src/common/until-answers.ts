import { setTimeout as sleep } from 'node:timers/promises';

export interface UntilAnswersOptions {
  /** Whether a failure means "the service is not answering right now" (worth waiting out). */
  isOutage: (error: unknown) => boolean;
  /** After this long, the last failure is thrown. */
  giveUpAfterMs: number;
  /** The wait between tries doubles from 0.25 s up to this. */
  maxDelayMs: number;
  /** Checked after each failure: the process shutting down is not an outage to wait out. */
  stopping?: () => boolean;
  /** Aborted on shutdown: ends a wait at once (the failure is thrown), so a shutdown is not delayed. */
  signal?: AbortSignal;
  /** Told of the first outage (once), e.g. to log that the work is being retried. */
  onOutage?: (error: unknown) => void;
}

/**
 * Runs `work`, and while the service it needs is not answering runs it again (0.25 s, 0.5 s, ... at most
 * `maxDelayMs` apart) until it succeeds, fails for another reason, `giveUpAfterMs` has passed, or the
 * process stops. For work that must not be lost to an outage.
 */
export async function untilAnswers<T>(work: () => Promise<T>, options: UntilAnswersOptions): Promise<T> {
  const { isOutage, giveUpAfterMs, maxDelayMs, stopping = () => false, signal, onOutage } = options;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isOutage(error) || stopping() || signal?.aborted || Date.now() - started > giveUpAfterMs)
        throw error;
      if (attempt === 1) onOutage?.(error);
      const delay = Math.min(250 * 2 ** Math.min(attempt - 1, 20), maxDelayMs);
      try {
        await sleep(delay, undefined, signal ? { signal } : undefined);
      } catch {
        throw error; // stopped while waiting: the outage's failure is what the caller reports
      }
    }
  }
}
