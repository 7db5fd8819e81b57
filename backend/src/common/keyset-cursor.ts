import { ValidationFailedError } from './domain-errors';

/**
 * A row's place in a list ordered by (a timestamp, id): the timestamp as PostgreSQL has it, to the
 * microsecond (ISO, UTC; a JavaScript Date would round it to the millisecond and a page could then skip
 * or repeat rows of the same millisecond), and the row's uuid.
 */
export interface Keyset {
  at: string;
  id: string;
}

/** The SQL that gives a timestamptz column as a Keyset's `at`. */
export const keysetAt = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const KEYSET =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A page's last row as the opaque cursor of the next page. */
export function encodeKeyset(keyset: Keyset): string {
  return Buffer.from(`${keyset.at} ${keyset.id}`, 'utf8').toString('base64url');
}

/**
 * The keyset inside a cursor this API handed out, or a 400 with `message` (never a 500 from
 * PostgreSQL): the exact text it was made of, a real date and time (a 31 February would reach the
 * database), a lower-case uuid. Undefined (the first page) for no cursor.
 */
export function decodeKeyset(cursor: string | undefined, message: string): Keyset | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = KEYSET.exec(text);
  const date = match ? new Date(`${match[1]}Z`) : null;
  const at = text.slice(0, 27);
  if (
    !match ||
    !date ||
    encodeKeyset({ at, id: match[2] }) !== cursor ||
    Number.isNaN(date.getTime()) ||
    date.getUTCFullYear() < 1970 ||
    date.toISOString().slice(0, 19) !== match[1]
  )
    throw new ValidationFailedError(message);
  return { at, id: match[2] };
}
