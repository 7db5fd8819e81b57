import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { QueueAdapterOptions } from '@bull-board/api/typings/app';
import { ExpressAdapter } from '@bull-board/express';
import { type BullBoardInstance, BullBoardModule, InjectBullBoard } from '@bull-board/nestjs';
import { type DynamicModule, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import type { AppConfig } from '../config/app-config';
import { BullJobQueue } from '../queue/bullmq-job-queue';
import { JobQueue } from '../queue/job-queue';
import { redactJobData } from './job-data-redaction';
import { QueueDashboardAccess } from './queue-dashboard-access';
import { QueueDashboardController } from './queue-dashboard.controller';

@Module({
  imports: [AuthModule],
  providers: [QueueDashboardAccess],
  exports: [QueueDashboardAccess],
})
class QueueDashboardAccessModule {}

/** Shows the app's BullMQ queue on the board: job data redacted, retries of failed jobs only. */
@Injectable()
class DashboardQueues implements OnModuleInit {
  constructor(
    @InjectBullBoard() private readonly board: BullBoardInstance,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    if (!(this.jobs instanceof BullJobQueue)) return;
    const options: Partial<QueueAdapterOptions> & { allowCompletedRetries: boolean } = {
      displayName: 'Switchboard jobs',
      allowRetries: true,
      // A completed job ran its effect (a mail sent, a reply stored): running it again is not offered.
      allowCompletedRetries: false,
    };
    const adapter = new BullMQAdapter(this.jobs.queue, options);
    adapter.setFormatter('data', redactJobData);
    this.board.addQueue(adapter);
  }
}

/**
 * The operators' queue dashboard (bull-board) at /api/admin/queues, superadmins only, when the jobs
 * run on BullMQ (REDIS_URL). Without Redis only the session route exists, and says there is none.
 */
@Module({})
export class QueueDashboardModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.redisUrl)
      return {
        module: QueueDashboardModule,
        imports: [QueueDashboardAccessModule],
        controllers: [QueueDashboardController],
      };
    return {
      module: QueueDashboardModule,
      imports: [
        QueueDashboardAccessModule,
        BullBoardModule.forRootAsync({
          imports: [QueueDashboardAccessModule],
          inject: [QueueDashboardAccess],
          useFactory: (access: QueueDashboardAccess) => ({
            route: '/admin/queues',
            adapter: ExpressAdapter,
            middleware: access.middleware,
            boardOptions: { uiConfig: { boardTitle: 'Switchboard', hideDocsLink: true } },
          }),
        }),
      ],
      controllers: [QueueDashboardController],
      providers: [DashboardQueues],
    };
  }
}
