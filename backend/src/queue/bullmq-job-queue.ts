import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../common/redis-client';
import { settlesWithin } from '../common/settles-within';
import { JobQueue } from './job-queue';
import { splitRequestId, withRequestId } from './job-request-id';
import { JobRegistry } from './job-registry';
import { PermanentJobError, type EnqueueOptions, type JobName, type JobPayloads } from './job-types';
import { QueueUnavailableError } from './queue-unavailable.error';

export const QUEUE_NAME = 'switchboard';

const jobKey = (name: JobName, jobId: string): string => `${name}-${jobId}`;
const DEFAULT_ATTEMPTS = 3;
/** Within the process's shutdown limit (SHUTDOWN_LIMIT_MS, 25 s), the rest being left to close the others. */
const JOBS_FINISH_LIMIT_MS = 18_000;
/** Errors a handler threw, which the job registry's wrapper has logged already. */
const loggedFailures = new WeakSet<Error>();

export interface BullOptions {
  redisUrl: string;
  /** Keeps test runs (or installations) sharing one Redis apart. */
  prefix: string;
  /** Jobs a worker runs at once (WORKER_CONCURRENCY). */
  concurrency: number;
}

/** The worker's connection: its blocking commands wait for Redis however long it is away. */
function workerConnection(url: string): Redis {
  return createRedisClient(url, 'job worker', { maxRetriesPerRequest: null });
}

/** The producer's: adding a job gives up within seconds while Redis is away (the request answers 503). */
function producerConnection(url: string): Redis {
  return createRedisClient(url, 'job queue', { maxRetriesPerRequest: 1, commandTimeout: 3000 });
}

/** The BullMQ driver: jobs survive restarts and are shared by every worker process. */
@Injectable()
export class BullJobQueue extends JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('BullQueue');
  private readonly redis: Redis;
  readonly queue: Queue;
  /** Schedules asked for, made again whenever Redis comes back (a flushed Redis forgets them). */
  private readonly schedules = new Map<JobName, { data: unknown; everyMs: number }>();

  constructor(private readonly options: BullOptions) {
    super();
    this.redis = producerConnection(options.redisUrl);
    this.queue = new Queue(QUEUE_NAME, { connection: this.redis, prefix: options.prefix });
    // An EventEmitter 'error' without a listener would end the process.
    this.queue.on('error', () => undefined);
    this.redis.on('ready', () => {
      for (const [name, { data, everyMs }] of this.schedules)
        this.upsertSchedule(name, data as JobPayloads[typeof name], everyMs).catch((error: unknown) =>
          this.logger.warn(`Could not schedule ${name} again: ${String(error)}`),
        );
    });
  }

  async enqueue<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    options: EnqueueOptions = {},
  ): Promise<void> {
    try {
      await this.queue.add(name, withRequestId(data), {
        jobId: options.jobId ? jobKey(name, options.jobId) : undefined,
        attempts: options.attempts ?? DEFAULT_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
      });
    } catch (error) {
      throw new QueueUnavailableError(error instanceof Error ? error.message : String(error));
    }
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async isQueued(name: JobName, jobId: string): Promise<boolean> {
    return !!(await this.queue.getJob(jobKey(name, jobId)));
  }

  async repeat<N extends JobName>(name: N, data: JobPayloads[N], everyMs: number): Promise<void> {
    this.schedules.set(name, { data, everyMs });
    await this.upsertSchedule(name, data, everyMs);
  }

  private async upsertSchedule<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    everyMs: number,
  ): Promise<void> {
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
    await settlesWithin(this.queue.close(), 2000);
    await closeRedisClient(this.redis);
  }
}

/** Runs the registered handlers for BullMQ jobs (in `worker` and `all` processes). */
@Injectable()
export class BullWorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BullWorker');
  private worker: Worker | null = null;
  private redis: Redis | null = null;
  /** Handlers running now (BullMQ's own count also waits for their acknowledgement in Redis). */
  private running = 0;
  private finishing: Promise<void> | null = null;

  constructor(
    private readonly options: BullOptions,
    private readonly registry: JobRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.redis = workerConnection(this.options.redisUrl);
    this.worker = new Worker(
      QUEUE_NAME,
      async (job) => {
        const handler = this.registry.get(job.name as JobName);
        const { data, requestId } = splitRequestId<never>(job.data);
        this.running++;
        try {
          await handler(data, {
            attempt: job.attemptsMade + 1,
            maxAttempts: job.opts.attempts ?? 1,
            jobId: job.id,
            requestId,
          });
        } catch (error) {
          // Retrying cannot help: tell BullMQ not to.
          const thrown = error instanceof PermanentJobError ? new UnrecoverableError(error.message) : error;
          if (thrown instanceof Error) loggedFailures.add(thrown);
          throw thrown;
        } finally {
          this.running--;
        }
      },
      {
        connection: this.redis,
        prefix: this.options.prefix,
        // Agent calls spend their time waiting on the agent, not on this process: a worker holds as many
        // as WORKER_CONCURRENCY in flight (a small fixed number would cap replies per second at
        // concurrency / agent latency, however idle the CPU).
        concurrency: this.options.concurrency,
        // A crashed worker's jobs go back to the queue within ~15 s instead of BullMQ's 60-90 s (the lock
        // of a live worker is renewed every lockDuration / 2, however long its webhook call takes).
        lockDuration: 10_000,
        stalledInterval: 5_000,
      },
    );
    this.worker.on('failed', (job, error) => {
      // The registry's wrapper logged the handler's failures, with their request id: this is for others
      // (a job that stalled too often, say).
      if (loggedFailures.has(error)) return;
      this.logger.warn(`Job ${job?.name} ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`);
    });
    // Connection errors are logged once per outage by the client; anything else here is worth a line.
    this.worker.on('error', (error) => {
      if (!/ECONNREFUSED|ECONNRESET|Connection is closed|ETIMEDOUT/.test(error.message))
        this.logger.error(error.message);
    });
  }

  /**
   * Takes no more jobs and lets the running ones finish, for at most JOBS_FINISH_LIMIT_MS. Called before
   * `app.close()` (finishRunningJobs in queue/finish-running-jobs.ts): the close hooks of the database and
   * the Redis clients, which the jobs need, run before this provider's own. BullMQ's
   * close() also waits for Redis to acknowledge them, for ever while Redis is away: once no handler is
   * running and Redis is unreachable there is nothing left to wait for. A job cut off (or finished but
   * not acknowledged) goes back to the queue when its lock expires (within ~15 s), to this or another
   * worker; its reply is stored at most once whatever happens.
   */
  finishRunningJobs(): Promise<void> {
    this.finishing ??= this.stopWorker();
    return this.finishing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.finishRunningJobs();
    await closeRedisClient(this.redis);
  }

  private async stopWorker(): Promise<void> {
    if (this.worker) {
      const closing = this.worker.close();
      const deadline = Date.now() + JOBS_FINISH_LIMIT_MS;
      let closed = false;
      while (!closed && Date.now() < deadline) {
        closed = await settlesWithin(closing, 250);
        if (!closed && this.running === 0 && this.redis?.status !== 'ready') break;
      }
      if (!closed)
        this.logger.warn(
          this.running
            ? `${this.running} job(s) still running after ${JOBS_FINISH_LIMIT_MS / 1000} s: stopping without them; they go back to the queue when their lock expires`
            : 'Redis unreachable: stopping without acknowledging the last jobs; they go back to the queue when their lock expires',
        );
    }
  }
}
