import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { currentRequestId } from '../logging/request-context';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { PermanentJobError, type EnqueueOptions, type JobName, type JobPayloads } from './job-types';

const DEFAULT_ATTEMPTS = 3;
const BASE_BACKOFF_MS = 500;
const REMEMBERED_IDS = 10_000;

/**
 * In-process driver for the embedded default: same semantics as the BullMQ driver (idempotent job ids,
 * retries with exponential backoff, permanent failures not retried), no Redis needed.
 */
@Injectable()
export class InlineJobQueue extends JobQueue implements OnApplicationShutdown {
  private readonly running = new Set<Promise<void>>();
  private readonly seenIds = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(private readonly registry: JobRegistry) {
    super();
  }

  enqueue<N extends JobName>(name: N, data: JobPayloads[N], options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The job queue is shut down'));
    if (options.jobId) {
      const key = `${name}:${options.jobId}`;
      if (this.seenIds.has(key)) return Promise.resolve();
      this.seenIds.add(key);
      if (this.seenIds.size > REMEMBERED_IDS)
        this.seenIds.delete(this.seenIds.values().next().value as string);
    }
    const ids = { jobId: options.jobId, requestId: currentRequestId() };
    const run = this.run(name, data, options.attempts ?? DEFAULT_ATTEMPTS, ids, options.prefetched).finally(
      () => this.running.delete(run),
    );
    this.running.add(run);
    return Promise.resolve();
  }

  /** Jobs live in this process: one it has seen is queued, running or done; after a restart, none is. */
  isQueued(name: JobName, jobId: string): Promise<boolean> {
    return Promise.resolve(this.seenIds.has(`${name}:${jobId}`));
  }

  ping(): Promise<void> {
    return this.closed ? Promise.reject(new Error('The job queue is shut down')) : Promise.resolve();
  }

  /** One process is the whole installation here: a timer is the schedule. */
  repeat<N extends JobName>(name: N, data: JobPayloads[N], everyMs: number): Promise<void> {
    const timer = setInterval(() => {
      if (!this.closed) void this.enqueue(name, data, { attempts: 1 });
    }, everyMs);
    timer.unref();
    this.timers.push(timer);
    return Promise.resolve();
  }

  private async run<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    attempts: number,
    ids: { jobId?: string; requestId?: string },
    prefetched: unknown,
  ): Promise<void> {
    // Let the caller's request finish first, as a real queue would.
    await new Promise((resolve) => setImmediate(resolve));
    const handler = this.registry.get(name);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        // A retry reads afresh, as a job of another process does on every attempt.
        const meta = { attempt, maxAttempts: attempts, ...ids };
        await handler(data, attempt === 1 && prefetched !== undefined ? { ...meta, prefetched } : meta);
        return;
      } catch (error) {
        // The registry's wrapper has logged the failure, in the job's context.
        if (error instanceof PermanentJobError || attempt === attempts || this.closed) return;
        await new Promise((resolve) => setTimeout(resolve, BASE_BACKOFF_MS * 2 ** (attempt - 1)));
      }
    }
  }

  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Stops the schedules and lets the running jobs finish (before `app.close()`, like BullWorkerHost's). */
  async finishRunningJobs(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.drain();
    this.closed = true;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.finishRunningJobs();
  }
}
