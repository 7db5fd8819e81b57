import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InlineJobQueue } from './inline-job-queue';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';

@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [JobRegistry, InlineJobQueue, { provide: JobQueue, useExisting: InlineJobQueue }],
  exports: [JobQueue],
})
export class QueueModule {}
