import {
  isN8nChunk,
  ndjsonPiece,
  readWholeStream,
  sniffStream,
  ssePiece,
  StreamReader,
  streamFormatOf,
  takeSseEvents,
} from './stream-parsers';
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
    const { events } = takeSseEvents('data: {"type":"item","content":"x"}\n\nevent: error\ndata: boom\n\n');
    expect(events.map(ssePiece)).toEqual([
      { kind: 'text', text: 'x' },
      { kind: 'error', message: 'boom' },
    ]);
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
    });
    expect(readWholeStream('[{"output":"x"}]')).toBeNull();
  });
});
