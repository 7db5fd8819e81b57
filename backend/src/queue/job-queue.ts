import type { EnqueueOptions, JobName, JobPayloads } from './job-types';

/** The queue port: services enqueue; a driver (in-process now, BullMQ with REDIS_URL) runs handlers. */
export abstract class JobQueue {
  abstract enqueue<N extends JobName>(name: N, data: JobPayloads[N], options?: EnqueueOptions): Promise<void>;
  /** Resolves when every job queued so far has finished (used by tests and graceful shutdown). */
  abstract drain(): Promise<void>;
}
