import { Injectable, type PipeTransform } from '@nestjs/common';
import { NotFoundError } from './domain-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * For `:id` route params: a malformed id answers the same 404 as an unknown one, at the edge, so no
 * service or query ever sees it. `alsoAccept` lists public ids that are not uuids ('default-agent').
 */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(
    private readonly notFoundMessage: string,
    private readonly alsoAccept: readonly string[] = [],
  ) {}

  /** Lower-cased: a UUID in capitals names the same row, and rooms and scopes use one spelling. */
  transform(value: string): string {
    if (isUuid(value)) return value.toLowerCase();
    if (this.alsoAccept.includes(value)) return value;
    throw new NotFoundError(this.notFoundMessage);
  }
}
