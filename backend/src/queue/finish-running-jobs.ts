import type { INestApplicationContext } from '@nestjs/common';

/** What runs jobs in this process: BullWorkerHost, InlineJobQueue, or nothing (an api-only node). */
export interface JobRunner {
  finishRunningJobs(): Promise<void>;
}

/** Provided by QueueModule in every process, with the job runners it has (none on an api-only node). */
export class RunningJobs {
  constructor(private readonly runners: (JobRunner | null | undefined)[]) {}

  async finish(): Promise<void> {
    for (const runner of this.runners) if (runner) await runner.finishRunningJobs();
  }
}

/**
 * The first step of a process's shutdown: take no more jobs and let the running ones finish, while
 * the database and the Redis clients they need are still open. `app.close()` alone would close those
 * first (in onModuleDestroy hooks, and the database in an onApplicationShutdown hook that may come
 * before the queue's): a reply in flight then failed on a closed pool and was sent again.
 */
export async function finishRunningJobs(app: INestApplicationContext): Promise<void> {
  await app.get(RunningJobs, { strict: false }).finish();
}
