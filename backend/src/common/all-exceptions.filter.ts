import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DomainError, STATUS_BY_CODE } from './domain-errors';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  if (response && typeof response === 'object' && 'message' in response) {
    const message = (response as { message: unknown }).message;
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string') return message;
  }
  return fallback;
}

/** Errors from body-parser and multer carry a `type`/`code` and a status but are not HttpExceptions. */
function fromMiddlewareError(e: unknown): ErrorBody | null {
  if (!e || typeof e !== 'object') return null;
  const err = e as { type?: string; status?: number; code?: string };
  if (err.type === 'entity.parse.failed')
    return { statusCode: 400, error: 'VALIDATION_FAILED', message: 'The request body is not valid JSON.' };
  if (err.type === 'entity.too.large')
    return { statusCode: 413, error: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' };
  if (err.type && typeof err.status === 'number' && err.status >= 400 && err.status < 500)
    return {
      statusCode: err.status,
      error: CODE_BY_STATUS[err.status] ?? 'BAD_REQUEST',
      message: 'Bad request.',
    };
  return null;
}

/** The one place errors become HTTP answers: domain codes → status, never a stack trace to a user. */
export function toErrorBody(exception: unknown): ErrorBody {
  if (exception instanceof DomainError) {
    return { statusCode: STATUS_BY_CODE[exception.code], error: exception.code, message: exception.message };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    let message = messageOf(exception.getResponse(), exception.message);
    if (status === HttpStatus.PAYLOAD_TOO_LARGE && /file too large/i.test(message)) {
      message = 'File too large: Please upload an image smaller than 5MB.';
    }
    if (
      status === HttpStatus.BAD_REQUEST &&
      (exception.cause instanceof SyntaxError || /in JSON at position|JSON/.test(message))
    ) {
      message = 'The request body is not valid JSON.';
    }
    if (status === HttpStatus.NOT_FOUND && /^Cannot (GET|POST|PUT|PATCH|DELETE)/.test(message)) {
      message = 'Not found.';
    }
    return {
      statusCode: status,
      error: CODE_BY_STATUS[status] ?? (status >= 500 ? 'SERVER_ERROR' : 'ERROR'),
      message,
    };
  }
  const middleware = fromMiddlewareError(exception);
  if (middleware) return middleware;
  if (exception instanceof QueryFailedError) {
    const code = (exception as QueryFailedError & { driverError?: { code?: string } }).driverError?.code;
    // Malformed ids and values out of range are the caller's mistake, not ours.
    if (code === '22P02' || code === '22003' || code === '22001')
      return { statusCode: 400, error: 'VALIDATION_FAILED', message: 'A value in the request is not valid.' };
    if (code === '23505')
      return { statusCode: 409, error: 'CONFLICT', message: 'This record already exists.' };
  }
  return { statusCode: 500, error: 'SERVER_ERROR', message: 'Server error. Please try again later.' };
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<Response>();
    const body = toErrorBody(exception);
    if (body.statusCode >= 500) {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    if (response.headersSent) return;
    response.status(body.statusCode).json(body);
  }
}
