/**
 * Errors a service raises for a rule a request broke. The one exception filter maps each code to an
 * HTTP status; the message is always a sentence a person can read.
 */
export type DomainErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'EMAIL_NOT_VERIFIED'
  | 'SSO_REQUIRED';

export const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  EMAIL_NOT_VERIFIED: 403,
  SSO_REQUIRED: 403,
};

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends DomainError {
  constructor(message: string) {
    super('VALIDATION_FAILED', message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Authentication required') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You don't have permission to perform this action.") {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/** What the request names existed, but no longer can be used (an expired agent callback). */
export class GoneError extends DomainError {
  constructor(message: string) {
    super('GONE', message);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(message: string) {
    super('PAYLOAD_TOO_LARGE', message);
  }
}

/** A quota reached: the message names the limit and when it resets. */
export class TooManyRequestsError extends DomainError {
  constructor(message: string) {
    super('TOO_MANY_REQUESTS', message);
  }
}
