import type { EnqueueOptions, JobName, JobPayloads } from './job-types';

/** The queue port: services enqueue; a driver (in-process now, BullMQ with REDIS_URL) runs handlers. */
export abstract class JobQueue {
  abstract enqueue<N extends JobName>(name: N, data: JobPayloads[N], options?: EnqueueOptions): Promise<void>;
  /**
   * Runs a job every `everyMs`, once per installation however many processes ask: BullMQ keeps one
   * schedule per name in Redis; the in-process driver (one process) runs a timer.
   */
  abstract repeat<N extends JobName>(name: N, data: JobPayloads[N], everyMs: number): Promise<void>;
  /**
   * Whether a job with this id is known to the queue (waiting, running, or kept after it ended). A
   * pending reply whose job is not known was lost (Redis flushed, a process died) and is queued again.
   */
  abstract isQueued(name: JobName, jobId: string): Promise<boolean>;
  /** Resolves when the queue's store answers (Redis PING); in-process, at once. */
  abstract ping(): Promise<void>;
  /** Resolves when every job queued so far has finished (used by tests and graceful shutdown). */
  abstract drain(): Promise<void>;
}
