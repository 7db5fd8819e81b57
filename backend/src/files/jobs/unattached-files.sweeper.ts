import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator';
import { JobQueue } from '../../queue/job-queue';
import { AttachmentsService } from '../attachments.service';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Uploads that no message took within a day are deleted, bytes too: once an hour, per installation. */
@Injectable()
export class UnattachedFilesSweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger('UnattachedFilesSweeper');

  constructor(
    private readonly attachments: AttachmentsService,
    private readonly queue: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.repeat('files.sweep-unattached', {}, SWEEP_EVERY_MS).catch((error: unknown) => {
      this.logger.error(`Could not schedule the unattached-files sweep: ${String(error)}`);
    });
  }

  @JobHandler('files.sweep-unattached')
  async sweepUnattachedFiles(): Promise<void> {
    const removed = await this.attachments.sweepUnattached();
    if (removed) this.logger.log(`Deleted ${removed} uploads no message used`);
  }
}
