import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidateIf } from 'class-validator';

// "Missing" reads better than "malformed" when a field is absent or blank.
const FIRST = ['whitelistValidation', 'isDefined', 'isNotEmpty', 'isString'];
function priority(constraint: string): number {
  const index = FIRST.indexOf(constraint);
  return index === -1 ? FIRST.length : index;
}

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const constraints = error.constraints ?? {};
    const keys = Object.keys(constraints).sort((a, b) => priority(a) - priority(b));
    if (keys.length) {
      const message = constraints[keys[0]];
      // class-validator's default for a forbidden field reads "property x should not exist".
      return message.startsWith('property ') ? `Unknown field "${error.property}".` : message;
    }
    const nested = error.children?.length ? firstMessage(error.children) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

/** One global pipe: strip nothing silently, refuse unknown fields, one readable sentence per 400. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) =>
      new BadRequestException(firstMessage(errors) ?? 'The request is not valid.'),
  });
}

/**
 * A field that may be left out but, when sent, is validated like any other. class-validator's
 * `@IsOptional()` also skips `null`, which then reached services as a value they did not expect (a
 * TypeError on `bio: null`, a not-null violation on an agent's `name: null`): explicit null is a 400.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
