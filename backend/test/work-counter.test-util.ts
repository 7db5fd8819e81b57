/**
 * A deterministic measure of how much text a piece of code looks at: while `countWork` runs, the
 * length of every string or buffer handed to the usual scanning and copying primitives (String
 * `indexOf` / `split` / `replace` / `search` / `trim*`, RegExp `exec` / `test`, `JSON.parse`,
 * `Buffer.concat`, `Buffer#toString`, `TextDecoder#decode`) is added up. A parser that looks at each
 * byte a bounded number of times counts a small multiple of its input; one that re-scans its whole
 * buffer on every chunk counts the square of it. Counting, not timing: the same on a busy machine.
 */
export async function countWork(run: () => unknown): Promise<number> {
  let total = 0;
  const restore: Array<() => void> = [];
  const wrap = (
    owner: object,
    name: string,
    size: (self: unknown, args: unknown[], result: unknown) => number,
  ) => {
    const table = owner as Record<string, unknown>;
    const original = table[name] as (...args: unknown[]) => unknown;
    table[name] = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      total += size(this, args, result);
      return result;
    };
    restore.push(() => (table[name] = original));
  };
  const lengthOf = (value: unknown) =>
    typeof value === 'string' || ArrayBuffer.isView(value) ? (value as { length: number }).length : 0;
  // A search looks at the text from where it starts to where it finds (or to the end).
  wrap(String.prototype, 'indexOf', (s, args, found) => {
    const from = Math.max(0, Number(args[1] ?? 0));
    return (found as number) < 0 ? lengthOf(s) - from : (found as number) - from + lengthOf(args[0]);
  });
  wrap(String.prototype, 'lastIndexOf', (s) => lengthOf(s));
  wrap(String.prototype, 'includes', (s) => lengthOf(s));
  for (const name of ['split', 'replace', 'replaceAll', 'search', 'match', 'trim', 'trimStart', 'trimEnd'])
    wrap(String.prototype, name, (s) => lengthOf(s));
  for (const name of ['exec', 'test'])
    wrap(RegExp.prototype, name, (re, args) => {
      const { global, sticky, lastIndex } = re as RegExp;
      return Math.max(0, lengthOf(args[0]) - (global || sticky ? lastIndex : 0));
    });
  wrap(JSON, 'parse', (_s, args) => lengthOf(args[0]));
  wrap(Buffer, 'concat', (_s, args) => (args[0] as Buffer[]).reduce((sum, b) => sum + b.length, 0));
  wrap(Buffer.prototype, 'toString', (s) => lengthOf(s));
  wrap(Buffer.prototype, 'indexOf', (s) => lengthOf(s));
  wrap(TextDecoder.prototype, 'decode', (_s, args) => lengthOf(args[0]));
  try {
    await run();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return total;
}

/** `total` bytes in pieces of `size` bytes (the last one shorter). */
export function piecesOf(body: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let from = 0; from < body.length; from += size) pieces.push(body.subarray(from, from + size));
  return pieces;
}
