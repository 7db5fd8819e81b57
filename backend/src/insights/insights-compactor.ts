import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobHandler } from '../queue/job-handler.decorator';
import { JobQueue } from '../queue/job-queue';
import { InsightsRollupsRepository } from './insights-rollups.repository';

const COMPACT_EVERY_MS = 10 * 60 * 1000;
const HOUR_MS = 3_600_000;

/**
 * The rollups' shards are for the hour being written: once an hour is over (and one more, for replies
 * still coming), its rows are merged into one per company and agent, so a 30-day question reads 8
 * times fewer rows. A repeated job: once per installation. Safe with writes going on (a late failure
 * or rating recreates a shard row, merged the next time).
 */
@Injectable()
export class InsightsCompactor implements OnApplicationBootstrap {
  private readonly logger = new Logger('InsightsCompactor');

  constructor(
    private readonly rollups: InsightsRollupsRepository,
    private readonly queue: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.repeat('insights.compact', {}, COMPACT_EVERY_MS).catch((error: unknown) => {
      this.logger.error(`Could not schedule the Insights compaction: ${String(error)}`);
    });
  }

  @JobHandler('insights.compact')
  async compact(): Promise<void> {
    const before = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS);
    const moved = await this.rollups.compact(before);
    if (moved) this.logger.debug(`Merged ${moved} rollup rows of hours before ${before.toISOString()}`);
  }
}
