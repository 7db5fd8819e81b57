import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { type RootLogger, unredactedLogger } from '../logging/logger';
import { runInRequestContext } from '../logging/request-context';
import { type JobMeta, PermanentJobError } from './job-types';

const CONTEXT = 'Jobs';
const logger = new Logger(CONTEXT);

/**
 * Runs a job's handler with the request id it was queued with in context (its webhook call sends it,
 * a job it queues carries it on) and every line it logs bound to the job's name, id and request id;
 * then logs how it ended. A job no request queued (sweeps, re-queued replies) logs its success at
 * debug only. Without a root logger (a registry built by hand) the lines lack the bindings.
 *
 * The job's logger (a child of the root, redacting whatever its lines hold) is made when the job first
 * logs a line of its own. The completion line holds only the bindings, the context and the duration: it
 * is written without the redaction, as the job's logger would write it through Nest's Logger (the same
 * line), at no cost of a child logger per job.
 */
export function inJobLogContext<D>(
  job: string,
  handler: (data: D, meta: JobMeta) => Promise<void>,
  root?: RootLogger,
): (data: D, meta: JobMeta) => Promise<void> {
  const lines = root && unredactedLogger(root);
  const run = async (data: D, meta: JobMeta, bindings: Record<string, string>): Promise<void> => {
    const started = performance.now();
    try {
      await handler(data, meta);
    } catch (error) {
      logFailure(job, meta, error);
      throw error;
    }
    const message = `Job ${job} completed in ${Math.round(performance.now() - started)} ms`;
    if (lines) lines[meta.requestId ? 'info' : 'debug']({ ...bindings, context: CONTEXT }, message);
    else if (meta.requestId) logger.log(message);
    else logger.debug(message);
  };
  return (data, meta) => {
    const bindings: Record<string, string> = {
      job,
      ...(meta.jobId ? { jobId: meta.jobId } : {}),
      ...(meta.requestId ? { requestId: meta.requestId } : {}),
    };
    return runInRequestContext(
      { requestId: meta.requestId, rootLogger: root, loggerBindings: bindings },
      () => run(data, meta, bindings),
    );
  };
}

function logFailure(job: string, meta: JobMeta, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  // A permanent failure is an expected outcome (a webhook's 4xx, say) that the handler has dealt with.
  if (error instanceof PermanentJobError) logger.warn(`Job ${job} failed, not retried: ${reason}`);
  else if (meta.attempt < meta.maxAttempts)
    logger.warn(`Job ${job} attempt ${meta.attempt}/${meta.maxAttempts} failed, retrying: ${reason}`);
  else logger.error(`Job ${job} failed after ${meta.attempt} attempt(s): ${reason}`);
}
