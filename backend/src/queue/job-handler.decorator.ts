import { SetMetadata } from '@nestjs/common';
import type { JobName } from './job-types';

export const JOB_HANDLER = Symbol('JOB_HANDLER');

/** Marks a provider method as the handler of a job name. */
export const JobHandler = (name: JobName): MethodDecorator => SetMetadata(JOB_HANDLER, name);
