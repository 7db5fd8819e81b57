import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { countWork } from '../../test/work-counter.test-util';
import { STREAM_LINE_TOO_LONG } from './stream-parsers';
import type { AppConfig } from '../config/app-config';
import { ReplyStopBus } from '../chats/streaming/reply-stop.bus';
import {
  MAX_RESPONSE_BYTES,
  postWebhookStreaming,
  type StopListenable,
  type StreamingWebhookOutcome,
} from './webhook-client';

/** What the local agent does for a request path. */
type Script = (res: http.ServerResponse) => void | Promise<void>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes the pieces one by one, a pause between each: the client sees them as separate chunks. */
async function dribble(
  res: http.ServerResponse,
  pieces: Array<string | Buffer>,
  pauseMs = 20,
): Promise<void> {
  for (const piece of pieces) {
    res.write(piece);
    await sleep(pauseMs);
  }
  res.end();
}

/** `size` bytes of one line in 256-byte writes, each on its own turn of the event loop. */
function oneLongLine(contentType: string, start: string, size: number): Script {
  return async (res) => {
    res.writeHead(200, { 'content-type': contentType });
    const body = Buffer.from(start + 'x'.repeat(size - start.length));
    for (let from = 0; from < body.length; from += 256) {
      res.write(body.subarray(from, from + 256));
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  };
}
const KB = 1024;

const scripts: Record<string, Script> = {
  // Not announced as a stream: sniffed, the first line has no end.
  '/long-json-256k': oneLongLine('application/json', '{"output":"', 256 * KB),
  '/long-json-1m': oneLongLine('application/json', '{"output":"', MAX_RESPONSE_BYTES),
  '/long-ndjson-257k': oneLongLine('application/x-ndjson', '{"type":"item","content":"', 257 * KB),
  '/long-ndjson-1m': oneLongLine('application/x-ndjson', '{"type":"item","content":"', MAX_RESPONSE_BYTES),
  '/ndjson': (res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    return dribble(res, [
      '{"type":"begin"}\n{"type":"item","con',
      'tent":"one "}\n',
      '{"type":"item","content":"two"}\n',
      '{"type":"end"}\n',
    ]);
  },
  // n8n answers a streaming webhook as JSON: the first line tells.
  '/n8n': (res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    return dribble(res, [
      '{"type":"begin","metadata":{}}\n',
      '{"type":"item","content":"sniffed"}\n',
      '{"type":"item","content":" twice"}\n',
      '{"type":"end"}\n',
    ]);
  },
  '/sse': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return dribble(res, ['data: α', 'β\n\n', 'data: line1\ndata: line2\n\n', 'data: [DONE]\n\n']);
  },
  '/text': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    const tick = Buffer.from('✓');
    return dribble(res, ['plain ', tick.subarray(0, 1), tick.subarray(1), ' done']);
  },
  '/classic': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[{"output":"classic"}]');
  },
  '/error': (res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    return dribble(res, [
      '{"type":"item","content":"partial"}\n',
      '{"type":"error","content":"Model overloaded"}\n',
    ]);
  },
  // Two chunks, then nothing (the connection stays open).
  '/stall': async (res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write('{"type":"item","content":"so far"}\n');
    await sleep(10);
    res.write('{"type":"item","content":" and more"}\n');
  },
  // A stream announced, then not one byte.
  '/headers-only': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
  },
  '/stall-before-text': (res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write('{"type":"begin"}\n');
  },
  '/huge': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const line = 'x'.repeat(64 * 1024);
    return dribble(
      res,
      Array.from({ length: MAX_RESPONSE_BYTES / line.length + 2 }, () => line),
      1,
    );
  },
};

describe('postWebhookStreaming against a local agent', () => {
  let server: http.Server;
  let base: string;
  let allowedHosts: Set<string>;
  const open = new Set<http.ServerResponse>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      open.add(res);
      res.on('close', () => open.delete(res));
      req.resume();
      req.on('end', () => void scripts[req.url ?? '']?.(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    allowedHosts = new Set([`127.0.0.1:${port}`]);
  });

  afterAll(async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function call(
    path: string,
    options: {
      timeoutMs?: number;
      maxDurationMs?: number;
      signal?: StopListenable;
      onText?: (t: string) => void;
    } = {},
  ): Promise<{ outcome: StreamingWebhookOutcome; pieces: string[] }> {
    const pieces: string[] = [];
    const outcome = await postWebhookStreaming(
      {
        url: base + path,
        body: { message: 'hi' },
        id: 'm1',
        timeoutMs: options.timeoutMs ?? 5000,
        allowedHosts,
      },
      {
        onText: (text) => {
          pieces.push(text);
          options.onText?.(text);
        },
        signal: options.signal,
        maxDurationMs: options.maxDurationMs,
      },
    );
    return { outcome, pieces };
  }

  it.each([
    ['/ndjson', 'one two'],
    ['/n8n', 'sniffed twice'],
    ['/sse', 'αβline1\nline2'],
    ['/text', 'plain ✓ done'],
  ])('%s: each piece as it comes, in order; the whole text at the end', async (path, text) => {
    const { outcome, pieces } = await call(path);
    expect(outcome).toEqual({ kind: 'streamed', status: 200, text, ending: 'end' });
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('a classic answer is read whole, as before', async () => {
    const { outcome, pieces } = await call('/classic');
    expect(outcome).toEqual({ kind: 'ok', status: 200, body: '[{"output":"classic"}]' });
    expect(pieces).toEqual([]);
  });

  it("an error chunk ends the stream with the agent's message and the text so far", async () => {
    const { outcome } = await call('/error');
    expect(outcome).toEqual({
      kind: 'streamed',
      status: 200,
      text: 'partial',
      ending: 'error',
      error: 'Model overloaded',
    });
  });

  it('a stall between chunks times out (idle timeout) keeping the text so far', async () => {
    const { outcome } = await call('/stall', { timeoutMs: 300 });
    expect(outcome).toEqual({ kind: 'streamed', status: 200, text: 'so far and more', ending: 'timeout' });
  });

  it('the idle timeout runs from the start of a stream (a stream that never sends a chunk)', async () => {
    // The overall limit is far away: only the idle timeout can end this within the test's time.
    const { outcome } = await call('/headers-only', { timeoutMs: 300, maxDurationMs: 600_000 });
    expect(outcome).toEqual({ kind: 'timeout' });
  }, 5_000);

  it('a stall before any text is a plain timeout (the job tries again)', async () => {
    const { outcome } = await call('/stall-before-text', { timeoutMs: 300 });
    expect(outcome).toEqual({ kind: 'timeout' });
  });

  it.each([
    ['an AbortSignal', () => new AbortController()],
    [
      'the stop bus’s signal',
      () => new ReplyStopBus({ redisUrl: null } as unknown as AppConfig).register('m1'),
    ],
  ])('Stop (%s) aborts the request and gives the text so far', async (_kind, make) => {
    const stop = make();
    const abort = () => ('abort' in stop ? stop.abort() : stop.signal.abort());
    const { outcome } = await call('/stall', { onText: abort, signal: stop.signal });
    expect(outcome).toEqual({ kind: 'aborted', text: 'so far' });
  });

  it('the 1 MB cap applies to a stream', async () => {
    const { outcome } = await call('/huge');
    expect(outcome).toEqual({ kind: 'too_large' });
  });

  // Decoding and re-scanning the whole first line on every chunk (sniffing), or re-splitting the NDJSON
  // buffer, makes a long line quadratic: 1 MB in 256-byte chunks cost ~4 s of CPU that way.
  it('a long line in 256-byte chunks costs linear work, sniffed or announced (256 KB and 1 MB)', async () => {
    const perByte: Record<string, number> = {};
    const outcomes: Record<string, StreamingWebhookOutcome['kind'] | string> = {};
    for (const path of ['/long-json-256k', '/long-json-1m', '/long-ndjson-257k', '/long-ndjson-1m']) {
      let outcome: StreamingWebhookOutcome | undefined;
      const work = await countWork(async () => (outcome = (await call(path)).outcome));
      const size = path.endsWith('1m') ? MAX_RESPONSE_BYTES : path.endsWith('257k') ? 257 * KB : 256 * KB;
      perByte[path] = Math.round((work / size) * 10) / 10;
      outcomes[path] =
        outcome?.kind === 'streamed' ? `${outcome.ending}: ${outcome.error ?? ''}` : (outcome?.kind ?? '');
    }
    // A classic answer (an object, not n8n's), however long its line; an announced stream refuses it.
    expect(outcomes).toEqual({
      '/long-json-256k': 'ok',
      '/long-json-1m': 'ok',
      '/long-ndjson-257k': `error: ${STREAM_LINE_TOO_LONG}`,
      '/long-ndjson-1m': `error: ${STREAM_LINE_TOO_LONG}`,
    });
    // The old code re-read what had come on every chunk: hundreds per byte at 256 KB, ~4x that at 1 MB.
    for (const value of Object.values(perByte)) expect([perByte, value < 12]).toEqual([perByte, true]);
  }, 60_000);

  it('the SSRF guard applies', async () => {
    const outcome = await postWebhookStreaming(
      { url: `${base}/ndjson`, body: {}, id: 'm', timeoutMs: 1000, allowedHosts: new Set() },
      { onText: () => undefined },
    );
    expect(outcome.kind).toBe('refused');
  });
});
