import {
  isN8nChunk,
  ndjsonPiece,
  readWholeStream,
  sniffStream,
  STREAM_LINE_TOO_LONG,
  StreamReader,
  streamFormatOf,
} from './stream-parsers';
import { countWork, piecesOf } from '../../test/work-counter.test-util';
import { parseAgentReply, SORRY_REPLY } from './webhook-client';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** Feeds a body to a reader cut at the given byte offsets; returns the text and any error. */
function readInPieces(
  reader: StreamReader,
  body: Buffer,
  cuts: number[],
): { text: string; errors: string[] } {
  const pieces = [];
  let from = 0;
  for (const cut of [...cuts, body.length]) {
    pieces.push(...reader.push(body.subarray(from, cut)));
    from = cut;
  }
  pieces.push(...reader.end());
  return {
    text: pieces.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
    errors: pieces.flatMap((p) => (p.kind === 'error' ? [p.message] : [])),
  };
}

const N8N_STREAM = [
  '{"type":"begin","metadata":{"nodeId":"a","nodeName":"Agent","itemIndex":0,"runIndex":0,"timestamp":1}}',
  '{"type":"item","content":"Hel","metadata":{"nodeId":"a"}}',
  '{"type":"item","content":"lo, ","metadata":{"nodeId":"a"}}',
  '{"type":"item","content":"wörld ✓","metadata":{"nodeId":"a"}}',
  '{"type":"end","metadata":{"nodeId":"a"}}',
  '',
].join('\n');

describe('stream formats', () => {
  it('are announced by Content-Type; plain text only when chunked', () => {
    expect(streamFormatOf('application/x-ndjson; charset=utf-8', false)).toBe('ndjson');
    expect(streamFormatOf('application/jsonl', true)).toBe('ndjson');
    expect(streamFormatOf('text/event-stream', true)).toBe('sse');
    expect(streamFormatOf('text/plain; charset=utf-8', true)).toBe('text');
    expect(streamFormatOf('text/plain', false)).toBeNull();
    expect(streamFormatOf('application/json', true)).toBeNull();
    expect(streamFormatOf(undefined, true)).toBeNull();
  });

  it('an n8n stream is sniffed from its first line; a classic body is known from its first byte', () => {
    expect(sniffStream('[{"output":"hi"}]')).toBe('classic');
    expect(sniffStream('  [')).toBe('classic');
    expect(sniffStream('{"type":"begin"')).toBeNull();
    expect(sniffStream('{"type":"begin","metadata":{}}\n{"ty')).toBe('ndjson');
    expect(sniffStream('{"output":"hi"}\n')).toBe('classic');
    expect(sniffStream('')).toBeNull();
    expect(isN8nChunk('{"type":"item","content":"x"}')).toBe(true);
    expect(isN8nChunk('{"type":"other"}')).toBe(false);
  });
});

describe('NDJSON', () => {
  it('reads n8n items in order, whatever the TCP chunks cut (lines and UTF-8 characters)', () => {
    const body = bytes(N8N_STREAM);
    const whole = readInPieces(new StreamReader('ndjson'), body, []);
    expect(whole).toEqual({ text: 'Hello, wörld ✓', errors: [] });
    // Every cut position, including inside the two-byte ö and the three-byte ✓.
    for (let cut = 1; cut < body.length; cut++) {
      expect(readInPieces(new StreamReader('ndjson'), body, [cut]).text).toBe('Hello, wörld ✓');
    }
    const tick = body.indexOf(bytes('✓'));
    expect(readInPieces(new StreamReader('ndjson'), body, [tick + 1, tick + 2]).text).toBe('Hello, wörld ✓');
  });

  it('reads a last line with no newline, CRLF lines, and skips blank or unreadable lines', () => {
    const body = bytes('{"type":"item","content":"a"}\r\n\r\nnot json\n{"type":"item","content":"b"}');
    expect(readInPieces(new StreamReader('ndjson'), body, [5])).toEqual({ text: 'ab', errors: [] });
  });

  it('an error chunk is an error with its content', () => {
    expect(ndjsonPiece('{"type":"error","content":"Model overloaded"}')).toEqual({
      kind: 'error',
      message: 'Model overloaded',
    });
    expect(ndjsonPiece('{"type":"error"}')).toEqual({
      kind: 'error',
      message: 'The agent reported an error.',
    });
    expect(ndjsonPiece('{"type":"begin"}')).toBeNull();
    expect(ndjsonPiece('{"output":"x"}')).toEqual({ kind: 'text', text: 'x' });
  });
});

describe('server-sent events', () => {
  it('joins multi-line data, skips comments and [DONE], keeps events split across chunks', () => {
    const body = bytes(
      ': keep-alive\n\ndata: first\ndata: second\n\ndata: {"choices":[{"delta":{"content":" é"}}]}\n\ndata: [DONE]\n\n',
    );
    const expected = 'first\nsecond é';
    for (let cut = 1; cut < body.length; cut++) {
      expect(readInPieces(new StreamReader('sse'), body, [cut]).text).toBe(expected);
    }
  });

  it('reads CRLF events, even with the CRLF split across chunks', () => {
    const body = bytes('data: a\r\n\r\ndata: b\r\n\r\n');
    for (let cut = 1; cut < body.length; cut++) {
      expect(readInPieces(new StreamReader('sse'), body, [cut]).text).toBe('ab');
    }
  });

  it('n8n chunks as data, and an error event', () => {
    const body = bytes('data: {"type":"item","content":"x"}\n\nevent: error\ndata: boom\n\n');
    expect(readInPieces(new StreamReader('sse'), body, [])).toEqual({ text: 'x', errors: ['boom'] });
  });

  it('an event with no blank line after it is read when the body ends', () => {
    expect(readInPieces(new StreamReader('sse'), bytes('data: last'), [])).toEqual({
      text: 'last',
      errors: [],
    });
  });
});

describe('plain text', () => {
  it('is every chunk as it comes, with UTF-8 characters held until whole', () => {
    const body = bytes('Grüße ✓');
    for (let cut = 1; cut < body.length; cut++) {
      const reader = new StreamReader('text');
      const pieces = [
        ...reader.push(body.subarray(0, cut)),
        ...reader.push(body.subarray(cut)),
        ...reader.end(),
      ];
      const texts = pieces.map((p) => (p.kind === 'text' ? p.text : ''));
      expect(texts.join('')).toBe('Grüße ✓');
      // No replacement character ever reaches the text: a split character waits for its last byte.
      expect(texts.some((t) => t.includes('\uFFFD'))).toBe(false);
    }
  });
});

describe('whole bodies', () => {
  it('the classic answer is unchanged; an n8n or SSE body read whole gives its text', () => {
    expect(parseAgentReply('[{"output":"classic"}]')).toBe('classic');
    expect(parseAgentReply(N8N_STREAM)).toBe('Hello, wörld ✓');
    expect(parseAgentReply('data: a\n\ndata: b\n\n')).toBe('ab');
    expect(parseAgentReply('{"type":"error","content":"x"}')).toBe(SORRY_REPLY);
    expect(parseAgentReply('plain words')).toBe(SORRY_REPLY);
    expect(readWholeStream('{"type":"item","content":"x"}\n{"type":"error","content":"bad"}')).toEqual({
      text: 'x',
      error: 'bad',
      files: [],
    });
    // An end chunk's files come with the text.
    expect(
      readWholeStream(
        '{"type":"item","content":"x"}\n{"type":"end","files":[{"name":"a.csv","url":"https://f.example/a.csv"},{"bad":1}]}',
      ),
    ).toEqual({
      text: 'x',
      error: null,
      files: [{ name: 'a.csv', mimeType: undefined, url: 'https://f.example/a.csv' }],
    });
    expect(readWholeStream('[{"output":"x"}]')).toBeNull();
  });
});

describe('streams read in linear work', () => {
  const KB = 1024;
  /** Feeds the body to a reader in 256-byte pieces; the work counted and what was read. */
  async function readCounting(format: 'ndjson' | 'sse', body: Buffer) {
    const reader = new StreamReader(format);
    const pieces: ReturnType<StreamReader['push']> = [];
    const work = await countWork(() => {
      for (const piece of piecesOf(body, 256)) pieces.push(...reader.push(piece));
      pieces.push(...reader.end());
    });
    return {
      perByte: work / body.length,
      text: pieces.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
      errors: pieces.flatMap((p) => (p.kind === 'error' ? [p.message] : [])),
    };
  }
  /** `count` n8n item lines of about `size` bytes each. */
  const ndjsonLines = (count: number, size: number) =>
    bytes(
      Array.from({ length: count }, (_, i) =>
        JSON.stringify({ type: 'item', content: String(i % 10).repeat(size - 40) }),
      ).join('\n'),
    );

  it.each(['ndjson', 'sse'] as const)(
    '%s: 257 KB and 1 MB with no newline, in 256-byte pieces: each byte looked at a few times, the over-long line refused',
    async (format) => {
      for (const size of [257 * KB, 1024 * KB]) {
        const prefix = format === 'sse' ? 'data: ' : '{"type":"item","content":"';
        const body = bytes(prefix + 'x'.repeat(size - prefix.length));
        const { perByte, text, errors } = await readCounting(format, body);
        // The old reader re-split its whole buffer on every piece: ~500 per byte at 256 KB, ~2000 at 1 MB.
        expect([size, perByte]).toEqual([size, expect.any(Number)]);
        expect(perByte).toBeLessThan(8);
        expect(text.length).toBe(0);
        expect(errors).toEqual([STREAM_LINE_TOO_LONG]);
      }
    },
  );

  it('ndjson: lines just under the cap are read whole, in linear work', async () => {
    for (const count of [1, 4]) {
      const body = ndjsonLines(count, 250 * KB);
      const { perByte, text, errors } = await readCounting('ndjson', body);
      expect(errors).toEqual([]);
      expect(text.length).toBe(count * (250 * KB - 40));
      expect(perByte).toBeLessThan(8);
    }
  });

  it('sse: an event of many data lines and a long one are read whole, in linear work', async () => {
    const many = Array.from({ length: 4000 }, (_, i) => `data: line ${i}`).join('\r\n');
    const long = `data: ${'y'.repeat(250 * KB)}`;
    const body = bytes(`${many}\r\n\r\n${long}\n\n: comment\n\ndata: end`);
    const { perByte, text, errors } = await readCounting('sse', body);
    expect(errors).toEqual([]);
    const expected =
      Array.from({ length: 4000 }, (_, i) => `line ${i}`).join('\n') + 'y'.repeat(250 * KB) + 'end';
    expect(text.length).toBe(expected.length);
    expect(text === expected).toBe(true);
    expect(perByte).toBeLessThan(8);
  });

  it('a line at the cap is read; one byte more is refused, and the reader reads nothing after it', () => {
    const prefix = '{"type":"item","content":"';
    const atCap = `${prefix}${'a'.repeat(256 * KB - prefix.length - 2)}"}`;
    expect(atCap.length).toBe(256 * KB);
    const ok = readInPieces(new StreamReader('ndjson'), bytes(`${atCap}\n`), [1000, 200_000]);
    expect(ok.errors).toEqual([]);
    expect(ok.text.length).toBe(256 * KB - prefix.length - 2);
    const over = readInPieces(
      new StreamReader('ndjson'),
      bytes(`{"type":"item","content":"before"}\n${atCap} \n{"type":"item","content":"after"}\n`),
      [10, 100_000],
    );
    // Lengths, not texts: a failure prints no 256 KB string.
    expect({ text: over.text.length, errors: over.errors }).toEqual({
      text: 'before'.length,
      errors: [STREAM_LINE_TOO_LONG],
    });
  });
});
