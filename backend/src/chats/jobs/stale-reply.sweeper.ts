import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator';
import { JobQueue } from '../../queue/job-queue';
import { ChatsService } from '../chats.service';

export const SWEEP_EVERY_MS = 30_000;

/**
 * Fails replies stuck in 'pending' (a worker died mid-call), so no typing indicator sticks. The sweep is
 * a repeated job, so it runs once per installation, not once per api and worker process.
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
    const failed = await this.chats.failStaleReplies();
    if (failed) this.logger.warn(`Failed ${failed} replies that were pending too long`);
  }
}
