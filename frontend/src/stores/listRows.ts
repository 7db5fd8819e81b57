/**
 * A list's next page after the rows it has: a row already there stays as it is (a copy an event brought
 * while the page was in flight, or one that moved across the page boundary), the others follow in the
 * server's order.
 */
export function appendNew<T>(rows: T[], page: T[], id: (row: T) => string): T[] {
  const known = new Set(rows.map(id));
  return [...rows, ...page.filter((row) => !known.has(id(row)))];
}
