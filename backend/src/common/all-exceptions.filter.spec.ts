import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
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
