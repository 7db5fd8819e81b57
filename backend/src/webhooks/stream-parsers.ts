/**
 * Reading an agent's streamed answer as it arrives: newline-delimited JSON (n8n's Webhook node in
 * streaming mode, any `application/x-ndjson` or `application/jsonl` body), server-sent events
 * (`text/event-stream`) and plain chunked text. Pure functions and one small stateful reader; the
 * network side is webhook-client.ts.
 */

/** How an answer's body is read. `classic`: buffered whole, then `[{"output": ...}]`. */
export type StreamFormat = 'ndjson' | 'sse' | 'text';

/** What one unit of a stream says: more text, or that the agent failed (n8n `{"type":"error"}`). */
export type StreamPiece = { kind: 'text'; text: string } | { kind: 'error'; message: string };

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines']);
/** n8n's chunk types: a first line with one of these marks an n8n stream whatever the Content-Type. */
const N8N_CHUNK_TYPES = new Set(['begin', 'item', 'end', 'error']);

export const AGENT_STREAM_ERROR = 'The agent reported an error.';

/**
 * The stream format a response's headers announce, or null: read it the classic way (or sniff it).
 * Plain text counts as a stream only when chunked; a `text/plain` body with a length is classic.
 */
export function streamFormatOf(contentType: string | undefined, chunked: boolean): StreamFormat | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (NDJSON_TYPES.has(type)) return 'ndjson';
  if (type === 'text/event-stream') return 'sse';
  if (type === 'text/plain' && chunked) return 'text';
  return null;
}

/**
 * Sniffs a body's beginning (as far as it has come): `ndjson` when its first line is an n8n chunk,
 * `classic` when it cannot be one (anything but a JSON object first: `[{"output": ...}]`, say), null
 * while the first line is still incomplete. One look at the first byte decides the classic answer.
 */
export function sniffStream(start: string): 'ndjson' | 'classic' | null {
  const trimmed = start.trimStart();
  if (trimmed === '') return null;
  if (trimmed[0] !== '{') return 'classic';
  const newline = trimmed.indexOf('\n');
  if (newline < 0) return null;
  return isN8nChunk(trimmed.slice(0, newline)) ? 'ndjson' : 'classic';
}

/** A whole line that is an n8n stream chunk (`{"type":"begin"|"item"|"end"|"error", ...}`). */
export function isN8nChunk(line: string): boolean {
  const value = parseJson(line);
  return isRecord(value) && typeof value.type === 'string' && N8N_CHUNK_TYPES.has(value.type);
}

/** Complete lines off the front of a buffer (LF or CRLF), and the incomplete rest. */
export function takeLines(buffer: string): { lines: string[]; rest: string } {
  const parts = buffer.split('\n');
  const rest = parts.pop() ?? '';
  return { lines: parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)), rest };
}

/**
 * One NDJSON line: n8n's `item` gives its `content`, `error` fails the reply, `begin` and `end` (one
 * pair per node that streams) say nothing. Other JSON objects give their `output`, `text` or `content`
 * string; blank and unreadable lines are skipped.
 */
export function ndjsonPiece(line: string): StreamPiece | null {
  if (line.trim() === '') return null;
  return jsonPiece(parseJson(line));
}

function jsonPiece(value: unknown): StreamPiece | null {
  if (!isRecord(value)) return typeof value === 'string' && value ? { kind: 'text', text: value } : null;
  switch (value.type) {
    case 'begin':
    case 'end':
      return null;
    case 'error':
      return { kind: 'error', message: textField(value.content) ?? AGENT_STREAM_ERROR };
    case 'item':
      return textPiece(textField(value.content));
  }
  // OpenAI-style chat completion chunks, then the usual single-field shapes.
  const choices = value.choices;
  if (Array.isArray(choices) && isRecord(choices[0]) && isRecord(choices[0].delta)) {
    return textPiece(textField(choices[0].delta.content));
  }
  return textPiece(textField(value.output) ?? textField(value.text) ?? textField(value.content));
}

/** One server-sent event: its `event` name (if any) and its `data` lines joined by newlines. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * The complete events at the front of an SSE buffer (an event ends with a blank line) and the rest.
 * `data:` lines of one event are joined with newlines; comments (`:`) and other fields are skipped.
 */
export function takeSseEvents(buffer: string): { events: SseEvent[]; rest: string } {
  // A CR at the very end may be the first half of a CRLF split across chunks: it stays in the rest.
  const normalised = buffer.replace(/\r\n|\r(?!$)/g, '\n');
  const blocks = normalised.split('\n\n');
  const rest = blocks.pop() ?? '';
  return { events: blocks.map(sseEvent).filter((e): e is SseEvent => e !== null), rest };
}

/** An event block (its lines without the blank line that ended it); null when it carries no data. */
export function sseEvent(block: string): SseEvent | null {
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  return data.length ? { event, data: data.join('\n') } : null;
}

/**
 * An event's meaning: `[DONE]` ends nothing by itself (the connection's end does) and says nothing;
 * an `error` event fails the reply; JSON data is read like an NDJSON line; any other data is text.
 */
export function ssePiece(event: SseEvent): StreamPiece | null {
  if (event.data === '[DONE]') return null;
  if (event.event === 'error') return { kind: 'error', message: event.data || AGENT_STREAM_ERROR };
  const trimmed = event.data.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
    const value = parseJson(trimmed);
    if (value !== undefined) return jsonPiece(value);
  }
  return textPiece(event.data);
}

/**
 * Reads one streamed body chunk by chunk: bytes → text (a UTF-8 character split across chunks is
 * held until its last byte comes) → the format's units → pieces.
 */
export class StreamReader {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';

  constructor(readonly format: StreamFormat) {}

  push(chunk: Uint8Array): StreamPiece[] {
    return this.read(this.decoder.decode(chunk, { stream: true }), false);
  }

  /** The body has ended: what is left (an NDJSON line or SSE event with no final newline) is read too. */
  end(): StreamPiece[] {
    return this.read(this.decoder.decode(), true);
  }

  private read(text: string, last: boolean): StreamPiece[] {
    if (this.format === 'text') return text ? [{ kind: 'text', text }] : [];
    this.buffer += text;
    const pieces: Array<StreamPiece | null> = [];
    if (this.format === 'ndjson') {
      const { lines, rest } = takeLines(this.buffer);
      this.buffer = last ? '' : rest;
      for (const line of last ? [...lines, rest] : lines) pieces.push(ndjsonPiece(line));
    } else {
      const { events, rest } = takeSseEvents(this.buffer);
      this.buffer = last ? '' : rest;
      const tail = last ? sseEvent(rest.replace(/\r\n?/g, '\n')) : null;
      for (const event of tail ? [...events, tail] : events) pieces.push(ssePiece(event));
    }
    return pieces.filter((piece): piece is StreamPiece => piece !== null);
  }
}

/**
 * A whole streamed body read after the fact (the webhook tester, a stream that came in one chunk):
 * the text of its pieces, or null when it is not an n8n NDJSON or SSE stream.
 */
export function readWholeStream(body: string): { text: string; error: string | null } | null {
  const trimmed = body.trimStart();
  let format: StreamFormat | null = null;
  if (trimmed.startsWith('{') && isN8nChunk(takeLines(`${trimmed}\n`).lines[0])) format = 'ndjson';
  else if (/^(data|event):/.test(trimmed)) format = 'sse';
  if (!format) return null;
  const reader = new StreamReader(format);
  const pieces = [...reader.push(new TextEncoder().encode(body)), ...reader.end()];
  let text = '';
  for (const piece of pieces) {
    if (piece.kind === 'error') return { text, error: piece.message };
    text += piece.text;
  }
  return { text, error: null };
}

function textPiece(text: string | undefined): StreamPiece | null {
  return text ? { kind: 'text', text } : null;
}

function textField(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
