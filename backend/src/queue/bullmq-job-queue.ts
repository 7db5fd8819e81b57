import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { PermanentJobError, type EnqueueOptions, type JobName, type JobPayloads } from './job-types';

export const QUEUE_NAME = 'switchboard';
const DEFAULT_ATTEMPTS = 3;

export interface BullOptions {
  redisUrl: string;
  /** Keeps test runs (or installations) sharing one Redis apart. */
  prefix: string;
}

function connection(url: string): Redis {
  // BullMQ's blocking commands need no per-request retry limit.
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** The BullMQ driver: jobs survive restarts and are shared by every worker process. */
@Injectable()
export class BullJobQueue extends JobQueue implements OnApplicationShutdown {
  private readonly redis: Redis;
  readonly queue: Queue;

  constructor(private readonly options: BullOptions) {
    super();
    this.redis = connection(options.redisUrl);
    this.queue = new Queue(QUEUE_NAME, { connection: this.redis, prefix: options.prefix });
  }

  async enqueue<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    options: EnqueueOptions = {},
  ): Promise<void> {
    await this.queue.add(name, data, {
      jobId: options.jobId ? `${name}-${options.jobId}` : undefined,
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
    });
  }

  async repeat<N extends JobName>(name: N, data: JobPayloads[N], everyMs: number): Promise<void> {
    // Upserting the same scheduler id from every process keeps one schedule; one worker runs each turn.
    await this.queue.upsertJobScheduler(
      name,
      { every: everyMs },
      { name, data, opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } },
    );
  }

  async drain(): Promise<void> {
    for (;;) {
      const counts = await this.queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'waiting-children',
      );
      if (Object.values(counts).every((n) => n === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.redis.quit().catch(() => undefined);
  }
}

/** Runs the registered handlers for BullMQ jobs (in `worker` and `all` processes). */
@Injectable()
export class BullWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BullWorker');
  private worker: Worker | null = null;
  private redis: Redis | null = null;

  constructor(
    private readonly options: BullOptions,
    private readonly registry: JobRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.redis = connection(this.options.redisUrl);
    this.worker = new Worker(
      QUEUE_NAME,
      async (job) => {
        const handler = this.registry.get(job.name as JobName);
        try {
          await handler(job.data as never, {
            attempt: job.attemptsMade + 1,
            maxAttempts: job.opts.attempts ?? 1,
          });
        } catch (error) {
          // Retrying cannot help: tell BullMQ not to.
          if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      { connection: this.redis, prefix: this.options.prefix, concurrency: 32 },
    );
    this.worker.on('failed', (job, error) => {
      this.logger.warn(`Job ${job?.name} ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`);
    });
    this.worker.on('error', (error) => this.logger.error(error.message));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.redis?.quit().catch(() => undefined);
  }
}
