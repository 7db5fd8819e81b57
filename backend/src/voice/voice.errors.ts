import { DomainError } from '../common/domain-errors';

/** A service the call needs is briefly unavailable: 503 (with Retry-After), worth trying again. */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string) {
    super('SERVICE_UNAVAILABLE', message);
  }
}
