import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DomainError, STATUS_BY_CODE } from './domain-errors';
import { isConnectionError } from '../database/until-database-answers';

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

const NOT_JSON = 'The request body is not valid JSON.';
const BODY_TOO_LARGE = 'The request body is too large.';
const FILE_TOO_LARGE = 'File too large: Please upload an image smaller than 5MB.';

/** body-parser's errors carry a `type`; Nest hands them over wrapped in an HttpException (as its cause). */
function bodyParserErrorType(e: unknown): string | undefined {
  const source = e instanceof HttpException ? e.cause : e;
  const type = source && typeof source === 'object' ? (source as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}

/** Errors from body-parser and multer that reach us unwrapped: a `type`/`code` and a status. */
function fromMiddlewareError(e: unknown): ErrorBody | null {
  if (!e || typeof e !== 'object' || e instanceof HttpException) return null;
  const err = e as { type?: string; status?: number; code?: string };
  if (err.type && typeof err.status === 'number' && err.status >= 400 && err.status < 500)
    return {
      statusCode: err.status,
      error: CODE_BY_STATUS[err.status] ?? 'BAD_REQUEST',
      message: 'Bad request.',
    };
  return null;
}

/** The message for one of Nest's HTTP errors, chosen by what raised it, never by its text. */
function httpMessage(exception: HttpException): string {
  // JSON.parse's SyntaxError, from the JSON body parser.
  if (exception.cause instanceof SyntaxError) return NOT_JSON;
  // Only the upload interceptor (multer's file size limit) raises this one; a large body is a plain 413.
  if (exception instanceof PayloadTooLargeException) return FILE_TOO_LARGE;
  // Our own "not found" answers are domain errors: this one is Nest's, for a route that does not exist.
  if (exception instanceof NotFoundException) return 'Not found.';
  return messageOf(exception.getResponse(), exception.message);
}

/** The one place errors become HTTP answers: domain codes → status, never a stack trace to a user. */
export function toErrorBody(exception: unknown): ErrorBody {
  if (exception instanceof DomainError) {
    return { statusCode: STATUS_BY_CODE[exception.code], error: exception.code, message: exception.message };
  }
  switch (bodyParserErrorType(exception)) {
    case 'entity.parse.failed':
      return { statusCode: 400, error: 'VALIDATION_FAILED', message: NOT_JSON };
    case 'entity.too.large':
      return { statusCode: 413, error: 'PAYLOAD_TOO_LARGE', message: BODY_TOO_LARGE };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return {
      statusCode: status,
      error: CODE_BY_STATUS[status] ?? (status >= 500 ? 'SERVER_ERROR' : 'ERROR'),
      message: httpMessage(exception),
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
  // PostgreSQL restarting or unreachable: nothing the caller did, and worth trying again shortly.
  if (isConnectionError(exception))
    return { statusCode: 503, error: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE };
  return { statusCode: 500, error: 'SERVER_ERROR', message: 'Server error. Please try again later.' };
}

export const DATABASE_UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    this.render(exception, host.switchToHttp().getResponse<Response>());
  }

  /** The error's answer (and log line): also for errors of the lean send-message route, outside Nest. */
  render(exception: unknown, response: Response): void {
    const body = toErrorBody(exception);
    if (body.statusCode === 503) {
      this.logger.warn(`503: ${exception instanceof Error ? exception.message : String(exception)}`);
      if (!response.headersSent) response.setHeader('Retry-After', '5');
    } else if (body.statusCode >= 500) {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    if (response.headersSent) return;
    response.status(body.statusCode).json(body);
  }
}
