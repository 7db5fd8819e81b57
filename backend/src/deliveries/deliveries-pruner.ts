import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobHandler } from '../queue/job-handler.decorator';
import { JobQueue } from '../queue/job-queue';
import { DeliveriesRepository } from './deliveries.repository';

const PRUNE_EVERY_MS = 10 * 60 * 1000;
/** Rows per statement: never one huge update or delete. */
export const PRUNE_BATCH = 1_000;
/** Batches per run at most (the next run goes on). */
const PRUNE_MAX_BATCHES = 50;

/**
 * The delivery log's retention: bodies past their company's retention are cleared, rows past
 * DELIVERY_HORIZON_DAYS deleted, in batches. A repeated job: once per installation.
 */
@Injectable()
export class DeliveriesPruner implements OnApplicationBootstrap {
  private readonly logger = new Logger('DeliveriesPruner');

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.repeat('deliveries.prune', {}, PRUNE_EVERY_MS).catch((error: unknown) => {
      this.logger.error(`Could not schedule the delivery log's pruning: ${String(error)}`);
    });
  }

  @JobHandler('deliveries.prune')
  async prune(): Promise<{ cleared: number; deleted: number }> {
    let cleared = 0;
    let deleted = 0;
    for (let i = 0; i < PRUNE_MAX_BATCHES; i++) {
      const n = await this.deliveries.clearExpiredBodies(PRUNE_BATCH);
      cleared += n;
      if (n < PRUNE_BATCH) break;
    }
    for (let i = 0; i < PRUNE_MAX_BATCHES; i++) {
      const n = await this.deliveries.deleteBeyondHorizon(PRUNE_BATCH);
      deleted += n;
      if (n < PRUNE_BATCH) break;
    }
    if (cleared || deleted) this.logger.debug(`Cleared ${cleared} deliveries' bodies, deleted ${deleted}`);
    return { cleared, deleted };
  }
}
