import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AgentCallbackTokensService } from '../../agent-callbacks/agent-callback-tokens.service';
import { JobHandler } from '../../queue/job-handler.decorator';
import { JobQueue } from '../../queue/job-queue';
import { ChatsService } from '../chats.service';

export const SWEEP_EVERY_MS = 10_000;

/** What the user reads when a long-running agent (202 Accepted) did not call back in time. */
export const callbackDeadlineMissed = (minutes: number): string =>
  `The agent did not deliver its reply within its ${minutes}-minute deadline.`;

/**
 * Queues again pending replies whose job was lost, then fails replies pending past every retry budget,
 * so no typing indicator sticks. Replies an agent accepted with 202 are neither: their job is done and
 * they wait for a callback until the agent's deadline, then fail. The sweep is a repeated job, so it
 * runs once per installation, not once per api and worker process.
 */
@Injectable()
export class StaleReplySweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger('StaleReplySweeper');

  constructor(
    private readonly chats: ChatsService,
    private readonly queue: JobQueue,
    private readonly callbacks: AgentCallbackTokensService,
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
    const overdue = await this.callbacks.overdue();
    for (const { messageId, deadlineMinutes } of overdue)
      await this.chats.failReply(messageId, callbackDeadlineMissed(deadlineMinutes), 'callback_expired');
    if (overdue.length) this.logger.warn(`Failed ${overdue.length} replies whose agents did not call back`);
    const failed = await this.chats.failStaleReplies();
    if (failed) this.logger.warn(`Failed ${failed} replies that were pending too long`);
    await this.callbacks.deleteExpired();
  }
}
