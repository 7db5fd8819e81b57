import { DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import { BullJobQueue, BullWorkerHost, type BullOptions } from './bullmq-job-queue';
import { RunningJobs } from './finish-running-jobs';
import { InlineJobQueue } from './inline-job-queue';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';

/**
 * The queue port and its driver: BullMQ when REDIS_URL is set (handlers run where PROCESS_ROLE is
 * worker or all), else the in-process driver (handlers run right here).
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    const providers: Provider[] = [JobRegistry];
    if (config.redisUrl) {
      const options: BullOptions = {
        redisUrl: config.redisUrl,
        prefix: config.queuePrefix,
        concurrency: config.workerConcurrency,
      };
      providers.push(
        { provide: BullJobQueue, useFactory: () => new BullJobQueue(options) },
        { provide: JobQueue, useExisting: BullJobQueue },
      );
      if (config.processRole !== 'api') {
        providers.push({
          provide: BullWorkerHost,
          inject: [JobRegistry],
          useFactory: (registry: JobRegistry) => new BullWorkerHost(options, registry),
        });
      }
    } else {
      providers.push(InlineJobQueue, { provide: JobQueue, useExisting: InlineJobQueue });
    }
    providers.push({
      provide: RunningJobs,
      inject: [
        { token: BullWorkerHost, optional: true },
        { token: InlineJobQueue, optional: true },
      ],
      useFactory: (bull?: BullWorkerHost, inline?: InlineJobQueue) => new RunningJobs([bull, inline]),
    });
    return { module: QueueModule, imports: [DiscoveryModule], providers, exports: [JobQueue] };
  }
}
