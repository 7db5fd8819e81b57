import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalNotNull } from './validation';

/**
 * A list's optional `limit` query parameter: a whole number from 1 to `max`, with the same readable
 * messages on every list ('limit must be a whole number', 'limit must be between 1 and {max}').
 */
export function PageLimit(max: number, pageSize?: number): PropertyDecorator {
  const range = `limit must be between 1 and ${max}`;
  return applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: max, ...(pageSize ? { default: pageSize } : {}) }),
    OptionalNotNull(),
    Type(() => Number),
    IsInt({ message: 'limit must be a whole number' }),
    Min(1, { message: range }),
    Max(max, { message: range }),
  );
}
