import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  NODE_SEPARATOR,
  readWholeStream,
  type StreamPiece,
  StreamReader,
  StreamSniffer,
  streamFormatOf,
  UNNAMED_TOOL,
} from './stream-parsers';
import { parseAgentReply, postWebhookStreaming } from './webhook-client';

/** Answers recorded from a real n8n 2.41 instance (see the folder's README). */
const FIXTURES = join(__dirname, '../../test/fixtures/n8n');

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function recorded(name: 'echo' | 'fail' | 'stream'): Recorded {
  const [statusLine, ...lines] = readFileSync(join(FIXTURES, `${name}.headers.txt`), 'utf8').split(/\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: readFileSync(join(FIXTURES, `${name}.body`)),
  };
}

const STREAM_TEXT = `n8n streamed: Hello there${NODE_SEPARATOR}second chunk`;

const texts = (pieces: StreamPiece[]) => pieces.map((p) => (p.kind === 'text' ? p.text : '')).join('');

/** Feeds a body to a new reader cut at one byte offset. */
function readCutAt(body: Buffer, cut: number): StreamPiece[] {
  const reader = new StreamReader('ndjson');
  return [...reader.push(body.subarray(0, cut)), ...reader.push(body.subarray(cut)), ...reader.end()];
}

/** An n8n chunk line as its AI Agent node streams them. */
const chunk = (type: string, nodeId: string, content?: string) =>
  JSON.stringify({
    type,
    ...(content === undefined ? {} : { content }),
    metadata: { nodeId, nodeName: 'AI Agent', itemIndex: 0, runIndex: 0, timestamp: 1 },
  }) + '\n';

/**
 * An AI Agent-style stream built from n8n's chunk types: the answer token by token, a tool call in
 * between (the tool named as n8n's chat hub names it, in the chunk's JSON content).
 */
const AGENT_STREAM = [
  chunk('begin', 'agent'),
  chunk('item', 'agent', 'Let me '),
  chunk('item', 'agent', 'check. '),
  chunk('tool-call-start', 'agent', JSON.stringify({ toolCallId: 'call_1', toolName: 'Calculator' })),
  chunk('tool-call-end', 'agent', JSON.stringify({ toolCallId: 'call_1', toolName: 'Calculator' })),
  chunk('item', 'agent', '6 × 7 '),
  chunk('item', 'agent', '= 42'),
  chunk('end', 'agent'),
].join('');

describe('real n8n 2.41 answers', () => {
  it('the streamed answer: each node its own paragraph, an {"output"} item as its text', () => {
    const { body, headers } = recorded('stream');
    // n8n streams as application/json: not announced, sniffed from the first line.
    expect(streamFormatOf(headers['content-type'], headers['transfer-encoding'] === 'chunked')).toBeNull();
    expect(new StreamSniffer().push(body)).toBe('ndjson');
    const reader = new StreamReader('ndjson');
    expect(texts([...reader.push(body), ...reader.end()])).toBe(STREAM_TEXT);
    expect(readWholeStream(body.toString('utf8'))).toEqual({ text: STREAM_TEXT, error: null, files: [] });
  });

  it('the streamed answer reads the same whatever byte its chunks are cut at', () => {
    const { body } = recorded('stream');
    for (let cut = 0; cut <= body.length; cut++) expect(texts(readCutAt(body, cut))).toBe(STREAM_TEXT);
  });

  it('the classic answer is its output', () => {
    expect(parseAgentReply(recorded('echo').body.toString('utf8'))).toBe('n8n heard: Hello there');
  });

  describe('served as n8n served them', () => {
    let server: http.Server;
    let base: string;
    let allowedHosts: Set<string>;

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        const answer = recorded(req.url?.slice(1) as 'echo' | 'fail' | 'stream');
        req.resume();
        req.on('end', () => {
          res.writeHead(answer.status, { 'content-type': answer.headers['content-type'] });
          // Line by line, each its own chunk, as n8n flushes them.
          const lines = answer.body.toString('utf8').split(/(?<=\n)/);
          const next = () => {
            const line = lines.shift();
            if (line === undefined) return res.end();
            res.write(line);
            setTimeout(next, 5);
          };
          next();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      base = `http://127.0.0.1:${port}`;
      allowedHosts = new Set([`127.0.0.1:${port}`]);
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const call = async (name: string) => {
      const pieces: string[] = [];
      const outcome = await postWebhookStreaming(
        { url: `${base}/${name}`, body: { message: 'Hello there' }, id: 'm1', timeoutMs: 5000, allowedHosts },
        { onText: (text) => pieces.push(text) },
      );
      return { outcome, pieces };
    };

    it('stream: read as it arrives, one paragraph per node', async () => {
      const { outcome, pieces } = await call('stream');
      expect(outcome).toEqual({ kind: 'streamed', status: 200, text: STREAM_TEXT, ending: 'end' });
      expect(pieces).toEqual(['n8n streamed: Hello there', `${NODE_SEPARATOR}second chunk`]);
    });

    it('echo: the classic answer, read whole', async () => {
      const { outcome } = await call('echo');
      expect(outcome).toEqual({ kind: 'ok', status: 200, body: '[{"output":"n8n heard: Hello there"}]' });
    });

    it('fail: an HTTP error, not a stream', async () => {
      const { outcome, pieces } = await call('fail');
      expect(outcome).toEqual({
        kind: 'http_error',
        status: 500,
        body: '{"error":"agent failed on purpose"}',
      });
      expect(pieces).toEqual([]);
    });
  });
});

describe('an AI Agent-style n8n stream', () => {
  it('tokens in order; tool calls are a status, never text', () => {
    const reader = new StreamReader('ndjson');
    const pieces = [...reader.push(Buffer.from(AGENT_STREAM)), ...reader.end()];
    expect(texts(pieces)).toBe('Let me check. 6 × 7 = 42');
    expect(pieces.filter((p) => p.kind === 'tool')).toEqual([
      { kind: 'tool', tool: 'Calculator' },
      { kind: 'tool', tool: null },
    ]);
    // The status comes between the tokens it came between.
    const kinds = pieces.map((p) => (p.kind === 'tool' ? `tool:${p.tool}` : p.kind));
    expect(kinds).toEqual(['text', 'text', 'tool:Calculator', 'tool:null', 'text', 'text']);
    expect(new StreamSniffer().push(Buffer.from(AGENT_STREAM))).toBe('ndjson');
  });

  it('a tool named by a bare string or the metadata; unnamed; over-long names cut', () => {
    const tool = (line: string) => {
      const reader = new StreamReader('ndjson');
      return [...reader.push(Buffer.from(line + '\n')), ...reader.end()];
    };
    expect(tool('{"type":"tool-call-start","content":"Wikipedia"}')).toEqual([
      { kind: 'tool', tool: 'Wikipedia' },
    ]);
    expect(tool('{"type":"tool-call-start","metadata":{"nodeId":"a","toolName":"Search"}}')).toEqual([
      { kind: 'tool', tool: 'Search' },
    ]);
    expect(tool('{"type":"tool-call-start","content":"{\\"toolCallId\\":\\"x\\"}"}')).toEqual([
      { kind: 'tool', tool: UNNAMED_TOOL },
    ]);
    const [long] = tool(JSON.stringify({ type: 'tool-call-start', content: 'x'.repeat(500) }));
    expect(long.kind === 'tool' && long.tool?.length).toBe(60);
  });

  it('an error chunk ends it with its message, after the text so far', () => {
    const reader = new StreamReader('ndjson');
    const body = chunk('begin', 'a') + chunk('item', 'a', 'Half') + chunk('error', 'a', 'Model overloaded');
    const pieces = [...reader.push(Buffer.from(body)), ...reader.end()];
    expect(pieces).toEqual([
      { kind: 'text', text: 'Half' },
      { kind: 'error', message: 'Model overloaded' },
    ]);
  });

  it('only an item that is exactly a JSON object with a string output is unwrapped', () => {
    const read = (...contents: string[]) => {
      const reader = new StreamReader('ndjson');
      const body = contents.map((content) => chunk('item', 'n', content)).join('');
      return texts([...reader.push(Buffer.from(body)), ...reader.end()]);
    };
    expect(read('{"output":"shown"}')).toBe('shown');
    expect(read(' {"output":"padded","extra":1} ')).toBe('padded');
    expect(read('{"output":42}')).toBe('{"output":42}');
    expect(read('{"text":"not output"}')).toBe('{"text":"not output"}');
    expect(read('{"output":"a"} and more')).toBe('{"output":"a"} and more');
    // Tokens of a JSON answer streamed piece by piece are text as they come.
    expect(read('{"out', 'put":"x"}')).toBe('{"output":"x"}');
  });

  it('n8n chunks sent as server-sent events keep their paragraphs and tool status too', () => {
    const reader = new StreamReader('sse');
    const { body } = recorded('stream');
    const events = body
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => `data: ${line}\n\n`)
      .join('');
    const tool = `data: ${chunk('tool-call-start', 's4', 'Search').trim()}\n\n`;
    const pieces = [...reader.push(Buffer.from(events + tool)), ...reader.end()];
    expect(texts(pieces)).toBe(STREAM_TEXT);
    expect(pieces.at(-1)).toEqual({ kind: 'tool', tool: 'Search' });
  });

  it('nodes are paragraphs: a node after another starts a new one; chunks of one node do not', () => {
    const reader = new StreamReader('ndjson');
    const body =
      chunk('begin', 'a') +
      chunk('item', 'a', 'one ') +
      chunk('item', 'a', 'node') +
      chunk('end', 'a') +
      chunk('begin', 'b') +
      chunk('end', 'b') +
      chunk('begin', 'c') +
      chunk('item', 'c', 'next') +
      chunk('end', 'c');
    expect(texts([...reader.push(Buffer.from(body)), ...reader.end()])).toBe(`one node${NODE_SEPARATOR}next`);
  });
});
