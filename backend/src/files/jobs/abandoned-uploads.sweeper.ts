import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator';
import { JobQueue } from '../../queue/job-queue';
import { AttachmentsService } from '../attachments.service';

export const ABANDONED_UPLOADS_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * With S3_URL: aborts the bucket's incomplete multipart uploads that a cut upload left behind when its
 * abort could not get through (S3 away past the background retries, or the process stopped meanwhile).
 * At start and once an hour, as a job, so it runs where the other sweeps run (once per turn per
 * installation); a start-up run from several nodes at once is harmless (see abortAbandonedUploads).
 */
@Injectable()
export class AbandonedUploadsSweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger('AbandonedUploadsSweeper');

  constructor(
    private readonly attachments: AttachmentsService,
    private readonly queue: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.attachments.storesInBucket) return;
    // Not awaited: with Redis briefly away the schedule is made when it is back; boot does not wait.
    const failed = (what: string) => (error: unknown) =>
      this.logger.error(`Could not ${what} the sweep of abandoned multipart uploads: ${String(error)}`);
    this.queue
      .repeat('files.abort-abandoned-uploads', {}, ABANDONED_UPLOADS_SWEEP_EVERY_MS)
      .catch(failed('schedule'));
    // One id per hour: nodes starting together queue one run, a start later in the day its own.
    const hour = Math.floor(Date.now() / ABANDONED_UPLOADS_SWEEP_EVERY_MS);
    this.queue
      .enqueue('files.abort-abandoned-uploads', {}, { jobId: `at-start-${hour}`, attempts: 1 })
      .catch(failed('queue'));
  }

  @JobHandler('files.abort-abandoned-uploads')
  async abortAbandonedUploads(): Promise<void> {
    const result = await this.attachments.abortAbandonedUploads();
    if (result?.aborted)
      this.logger.log(`Aborted ${result.aborted} abandoned multipart uploads in the bucket`);
  }
}
