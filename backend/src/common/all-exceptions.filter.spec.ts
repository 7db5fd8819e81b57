import {
  BadRequestException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { toErrorBody } from './all-exceptions.filter';
import { ConflictError, ValidationFailedError } from './domain-errors';

describe('toErrorBody', () => {
  it('maps domain errors to their status with their message', () => {
    expect(toErrorBody(new ValidationFailedError('Name is required'))).toEqual({
      statusCode: 400,
      error: 'VALIDATION_FAILED',
      message: 'Name is required',
    });
    expect(toErrorBody(new ConflictError('Taken')).statusCode).toBe(409);
  });

  it("keeps Nest's HTTP errors but flattens their message", () => {
    expect(toErrorBody(new BadRequestException(['a', 'b'])).message).toBe('a; b');
    expect(toErrorBody(new NotFoundException('Cannot GET /api/nope')).message).toBe('Not found.');
    expect(toErrorBody(new PayloadTooLargeException('File too large')).message).toBe(
      'File too large: Please upload an image smaller than 5MB.',
    );
  });

  it('maps by error type, not by what a message happens to say', () => {
    const notJson = new BadRequestException('Unexpected end of JSON input', { cause: new SyntaxError('x') });
    expect(toErrorBody(notJson).message).toBe('The request body is not valid JSON.');
    // A validation message that mentions JSON is still that message.
    expect(toErrorBody(new BadRequestException('settings must be a JSON object')).message).toBe(
      'settings must be a JSON object',
    );
    const tooLarge = new HttpException('request entity too large', 413, {
      cause: Object.assign(new Error('request entity too large'), { type: 'entity.too.large' }),
    });
    expect(toErrorBody(tooLarge)).toEqual({
      statusCode: 413,
      error: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is too large.',
    });
  });

  it('turns a malformed id reaching PostgreSQL into a 400, not a 500', () => {
    const error = new QueryFailedError(
      'SELECT',
      [],
      Object.assign(new Error('invalid input'), { code: '22P02' }),
    );
    expect(toErrorBody(error).statusCode).toBe(400);
  });

  it('never leaks an unexpected error', () => {
    expect(toErrorBody(new Error('password=hunter2 at db.ts:12'))).toEqual({
      statusCode: 500,
      error: 'SERVER_ERROR',
      message: 'Server error. Please try again later.',
    });
  });
});
