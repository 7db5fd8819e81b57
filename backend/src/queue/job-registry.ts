import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { RootLogger } from '../logging/logger';
import { ROOT_LOGGER } from '../logging/logging.module';
import { timedJob } from '../metrics/metrics';
import { JOB_HANDLER } from './job-handler.decorator';
import { inJobLogContext } from './job-logging';
import { JOB_NAMES, type JobMeta, type JobName, type JobPayloads } from './job-types';

export type JobFunction<N extends JobName> = (data: JobPayloads[N], meta: JobMeta) => Promise<void>;

/** Finds every @JobHandler at boot; throws if a job has no handler or two. */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly handlers = new Map<JobName, JobFunction<JobName>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    // Absent where no LoggingModule is imported: jobs then log without their bindings.
    @Optional() @Inject(ROOT_LOGGER) private readonly root?: RootLogger,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const fn = instance[method];
        if (typeof fn !== 'function') continue;
        const name = this.reflector.get<JobName | undefined>(JOB_HANDLER, fn as () => unknown);
        if (!name) continue;
        if (this.handlers.has(name)) throw new Error(`Job "${name}" has two handlers`);
        const handler = (fn as JobFunction<JobName>).bind(instance);
        this.handlers.set(name, timedJob(name, inJobLogContext(name, handler, this.root)));
      }
    }
    for (const name of JOB_NAMES) {
      if (!this.handlers.has(name)) throw new Error(`Job "${name}" has no handler`);
    }
  }

  get<N extends JobName>(name: N): JobFunction<N> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`Job "${name}" has no handler`);
    return handler as JobFunction<N>;
  }
}
