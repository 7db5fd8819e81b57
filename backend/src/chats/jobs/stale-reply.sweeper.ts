import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator';
import { JobQueue } from '../../queue/job-queue';
import { ChatsService } from '../chats.service';

export const SWEEP_EVERY_MS = 10_000;

/**
 * Queues again pending replies whose job was lost, then fails replies pending past every retry budget,
 * so no typing indicator sticks. The sweep is a repeated job, so it runs once per installation, not once
 * per api and worker process.
 */
@Injectable()
export class StaleReplySweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger('StaleReplySweeper');

  constructor(
    private readonly chats: ChatsService,
    private readonly queue: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited: with Redis briefly away the schedule is made when it is back; boot does not wait.
    this.queue.repeat('replies.sweep-stale', {}, SWEEP_EVERY_MS).catch((error: unknown) => {
      this.logger.error(`Could not schedule the stale-reply sweep: ${String(error)}`);
    });
  }

  @JobHandler('replies.sweep-stale')
  async sweepStaleReplies(): Promise<void> {
    const requeued = await this.chats.requeueLostReplies();
    if (requeued) this.logger.warn(`Queued ${requeued} replies again whose jobs were lost`);
    const failed = await this.chats.failStaleReplies();
    if (failed) this.logger.warn(`Failed ${failed} replies that were pending too long`);
  }
}
