const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * Cursors a keyset-paged list never wrote, made from one it did (base64url of "<timestamp> <uuid>"):
 * garbage, impossible dates, a bad or upper-case id, SQL, a changed byte. Each must be refused before
 * PostgreSQL sees it.
 */
export function forgedKeysetCursors(written: string): string[] {
  const text = Buffer.from(written, 'base64url').toString('utf8');
  const [at, id] = text.split(' ');
  return [
    'not-a-cursor!',
    'abc',
    b64('hello'),
    b64(`2026-02-31T10:00:00.000000Z ${id}`), // no 31 February
    b64(`2026-02-30T00:00:00.000000Z ${id}`),
    b64(`0000-01-01T00:00:00.000000Z ${id}`),
    b64(`2026-01-01T25:00:00.000000Z ${id}`),
    b64(`${at} not-a-uuid`),
    b64(`${at} ${id.toUpperCase()}`),
    b64(`${text}'; DROP TABLE chats; --`),
    `${written}x`,
  ];
}
