import { DomainError } from '../common/domain-errors';

export const QUEUE_UNAVAILABLE = 'The service is busy. Please try again in a moment.';

/** The job queue (Redis) cannot take a job right now: a 503 for a request that needs one. */
export class QueueUnavailableError extends DomainError {
  constructor(readonly reason: string) {
    super('SERVICE_UNAVAILABLE', QUEUE_UNAVAILABLE);
  }
}
