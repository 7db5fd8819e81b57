/**
 * Reading an agent's streamed answer as it arrives: newline-delimited JSON (n8n's Webhook node in
 * streaming mode, any `application/x-ndjson` or `application/jsonl` body), server-sent events
 * (`text/event-stream`) and plain chunked text. Pure functions and one small stateful reader; the
 * network side is webhook-client.ts.
 */

import { filesOf, type ReplyFile } from '../files/agent-reply-files';

/** How an answer's body is read. `classic`: buffered whole, then `[{"output": ...}]`. */
export type StreamFormat = 'ndjson' | 'sse' | 'text';

/**
 * What one unit of a stream says: more text, that the agent failed (n8n `{"type":"error"}`), or what
 * the agent is doing meanwhile (`tool`: an AI Agent node's tool call started, with the tool's name, or
 * ended: null). A tool call is a live status, never part of the reply's text.
 */
export type StreamPiece =
  | { kind: 'text'; text: string }
  | { kind: 'error'; message: string }
  | { kind: 'tool'; tool: string | null }
  /** Files an `end` chunk carries (`{type: 'end', files: [...]}`), shown with the stored reply. */
  | { kind: 'files'; files: ReplyFile[] };

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines']);
/** n8n's chunk types: a first line with one of these marks an n8n stream whatever the Content-Type. */
const N8N_CHUNK_TYPES = new Set(['begin', 'item', 'end', 'error', 'tool-call-start', 'tool-call-end']);

/** Between the texts of two n8n nodes that stream (each its own begin…end): one paragraph each. */
export const NODE_SEPARATOR = '\n\n';
/** A tool call whose chunk names no tool. */
export const UNNAMED_TOOL = 'a tool';

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
 * The longest line a streamed answer may have (an NDJSON line, an SSE line), in characters (bytes when
 * sniffing): n8n's chunks are a few hundred bytes; a longer line is refused rather than held and
 * re-read. The whole body is capped at 1 MB anyway (webhook-client.ts).
 */
export const MAX_STREAM_LINE = 256 * 1024;
export const STREAM_LINE_TOO_LONG = 'The streamed answer has a line longer than 256 KB.';

const LF = 0x0a;
const CR = 0x0d;
const OPEN_BRACE = 0x7b;
const BLANK_BYTES = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Sniffs a body's beginning (as far as it has come): `ndjson` when its first line is an n8n chunk,
 * `classic` when it cannot be one (anything but a JSON object first: `[{"output": ...}]`, say), null
 * while the first line is still incomplete. One look at the first byte decides the classic answer.
 */
export function sniffStream(start: string): 'ndjson' | 'classic' | null {
  const sniffer = new StreamSniffer();
  return sniffer.push(Buffer.from(start, 'utf8'));
}

/**
 * sniffStream for a body that comes in chunks, each byte looked at once: only the new chunk is searched
 * for the first line's end, and the first line is decoded once, when it is whole. A first line longer
 * than MAX_STREAM_LINE is no n8n chunk: `classic`.
 */
export class StreamSniffer {
  private readonly line: Buffer[] = [];
  private lineBytes = 0;
  private started = false;

  push(chunk: Buffer): 'ndjson' | 'classic' | null {
    let from = 0;
    if (!this.started) {
      while (from < chunk.length && BLANK_BYTES.has(chunk[from])) from++;
      if (from === chunk.length) return null;
      if (chunk[from] !== OPEN_BRACE) return 'classic';
      this.started = true;
    }
    const newline = chunk.indexOf(LF, from);
    const part = chunk.subarray(from, newline < 0 ? chunk.length : newline);
    this.lineBytes += part.length;
    if (this.lineBytes > MAX_STREAM_LINE) return 'classic';
    this.line.push(part);
    if (newline < 0) return null;
    return isN8nChunk(Buffer.concat(this.line, this.lineBytes).toString('utf8')) ? 'ndjson' : 'classic';
  }
}

/** A whole line that is an n8n stream chunk (`{"type":"begin"|"item"|"end"|"error", ...}`). */
export function isN8nChunk(line: string): boolean {
  const value = parseJson(line);
  return isRecord(value) && typeof value.type === 'string' && N8N_CHUNK_TYPES.has(value.type);
}

/**
 * Cuts text into lines as it comes, each character looked at a bounded number of times: only the new
 * text is searched for line ends, and a line still without its end is kept as a list of pieces, joined
 * once when its end comes (re-joining or re-scanning the whole buffer on every chunk made a long line
 * quadratic: 1 MB in 256-byte chunks cost seconds). LF ends a line and a CR before it is dropped; with
 * `crEnds` (SSE) a lone CR ends a line too, and a CRLF split across chunks is still one line end.
 */
export class LineSplitter {
  private pending: string[] = [];
  private pendingLength = 0;
  /** The last text ended with a CR (crEnds): an LF at the start of the next one is its second half. */
  private afterCr = false;
  /** A line was longer than `maxLine`: nothing more is read. */
  overlong = false;

  constructor(
    private readonly crEnds: boolean,
    private readonly maxLine = MAX_STREAM_LINE,
  ) {}

  /** The lines the text completes, appended to `lines`; false once a line is over the cap. */
  push(text: string, lines: string[]): boolean {
    if (this.overlong) return false;
    let start = 0;
    if (this.afterCr && text.length) {
      this.afterCr = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    // With crEnds, the next CR and LF from `start` on, each searched for at most once per position.
    let nextLf = -2;
    let nextCr = -2;
    for (;;) {
      let end: number;
      if (this.crEnds) {
        if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf('\n', start);
        if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf('\r', start);
        end = nextLf < 0 ? nextCr : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
      } else {
        end = text.indexOf('\n', start);
      }
      if (end < 0) break;
      if (this.pendingLength + end - start > this.maxLine) return this.fail();
      let line = text.slice(start, end);
      if (this.pending.length) {
        this.pending.push(line);
        line = this.pending.join('');
        this.pending = [];
        this.pendingLength = 0;
      }
      if (!this.crEnds && line.endsWith('\r')) line = line.slice(0, -1);
      lines.push(line);
      start = end + 1;
      if (this.crEnds && text.charCodeAt(end) === CR) {
        if (start === text.length) this.afterCr = true;
        else if (text.charCodeAt(start) === LF) start++;
      }
    }
    if (start < text.length) {
      this.pendingLength += text.length - start;
      if (this.pendingLength > this.maxLine) return this.fail();
      this.pending.push(text.slice(start));
    }
    return true;
  }

  /** The text has ended: its last line when it had no line end (null when there is none). */
  end(): string | null {
    if (this.overlong || !this.pending.length) return null;
    let line = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    if (!this.crEnds && line.endsWith('\r')) line = line.slice(0, -1);
    return line;
  }

  private fail(): false {
    this.overlong = true;
    this.pending = [];
    this.pendingLength = 0;
    return false;
  }
}

/**
 * One NDJSON line: n8n's `item` gives its `content`, `error` fails the reply, `begin` and `end` (one
 * pair per node that streams) say nothing, `tool-call-start`/`-end` are a tool status. Other JSON
 * objects give their `output`, `text` or `content` string; blank and unreadable lines are skipped.
 * (Paragraphs between nodes are the reader's work: N8nNodes.)
 */
export function ndjsonPiece(line: string): StreamPiece | null {
  if (line.trim() === '') return null;
  return jsonPiece(parseJson(line));
}

function jsonPiece(value: unknown): StreamPiece | null {
  if (!isRecord(value)) return typeof value === 'string' && value ? { kind: 'text', text: value } : null;
  switch (value.type) {
    case 'begin':
      return null;
    case 'end': {
      const files = filesOf(value);
      return files.length ? { kind: 'files', files } : null;
    }
    case 'error':
      return { kind: 'error', message: textField(value.content) ?? AGENT_STREAM_ERROR };
    case 'item':
      return textPiece(itemText(textField(value.content)));
    case 'tool-call-start':
      return { kind: 'tool', tool: toolName(value) };
    case 'tool-call-end':
      return { kind: 'tool', tool: null };
  }
  // OpenAI-style chat completion chunks, then the usual single-field shapes.
  const choices = value.choices;
  if (Array.isArray(choices) && isRecord(choices[0]) && isRecord(choices[0].delta)) {
    return textPiece(textField(choices[0].delta.content));
  }
  return textPiece(textField(value.output) ?? textField(value.text) ?? textField(value.content));
}

/**
 * An n8n item's text. A Respond to Webhook node in a streaming workflow sends its whole JSON answer as
 * one item (`{"output": "..."}`, n8n's own reply shape): an item that is exactly a JSON object with a
 * string `output` shows that text. Anything else (tokens of an AI Agent, other JSON) is text as it is.
 */
function itemText(content: string | undefined): string | undefined {
  if (content === undefined) return undefined;
  const trimmed = content.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return content;
  const value = parseJson(trimmed);
  return isRecord(value) && typeof value.output === 'string' ? value.output : content;
}

/**
 * The tool a `tool-call-start` chunk names: its content (a JSON object with `toolName`, `name` or
 * `tool`, or a bare name), else its metadata's `toolName`; a chunk that names none is UNNAMED_TOOL.
 * Cut to a short status line.
 */
function toolName(chunk: Record<string, unknown>): string {
  const content = textField(chunk.content)?.trim();
  let name: string | undefined;
  if (content) {
    const value = content.startsWith('{') ? parseJson(content) : undefined;
    if (isRecord(value)) name = textField(value.toolName) ?? textField(value.name) ?? textField(value.tool);
    else if (value === undefined && !content.startsWith('{')) name = content;
  }
  if (!name && isRecord(chunk.metadata)) name = textField(chunk.metadata.toolName);
  name = name?.trim();
  if (!name) return UNNAMED_TOOL;
  return name.length > MAX_TOOL_NAME ? `${name.slice(0, MAX_TOOL_NAME - 1)}…` : name;
}

const MAX_TOOL_NAME = 60;

/**
 * n8n streams each node's output between its own `begin` and `end` (`metadata.nodeId`); n8n's chat
 * keeps them apart. The text of a node after another node's text starts a new paragraph
 * (NODE_SEPARATOR), so two Respond to Webhook nodes do not run together into one line.
 */
class N8nNodes {
  private lastTextNode: string | null = null;
  private sawText = false;

  /** The piece a line gives, with the paragraph break before it when its node changed. */
  piece(line: string): StreamPiece | null {
    if (line.trim() === '') return null;
    return this.fromValue(parseJson(line));
  }

  /** The same for a line (or an SSE event's data) already parsed. */
  fromValue(value: unknown): StreamPiece | null {
    const piece = jsonPiece(value);
    if (!piece || piece.kind !== 'text') return piece;
    const node = isRecord(value) && isRecord(value.metadata) ? textField(value.metadata.nodeId) : undefined;
    let text = piece.text;
    if (node !== undefined) {
      if (this.sawText && this.lastTextNode !== null && node !== this.lastTextNode)
        text = NODE_SEPARATOR + text;
      this.lastTextNode = node;
    }
    this.sawText = true;
    return { kind: 'text', text };
  }
}

/** One server-sent event: its `event` name (if any) and its `data` lines joined by newlines. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * Server-sent events from their lines, as they come: an event ends with a blank line; its `data:` lines
 * are joined with newlines; comments (`:`) and other fields are skipped; an event without data is none.
 */
class SseEvents {
  private event: string | null = null;
  private data: string[] = [];

  /** The event this line completes, if any. */
  line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return null;
  }

  /** The event under way (the body ended with no blank line after it), if it has data. */
  dispatch(): SseEvent | null {
    const event = this.data.length ? { event: this.event, data: this.data.join('\n') } : null;
    this.event = null;
    this.data = [];
    return event;
  }
}

/**
 * An event's meaning: `[DONE]` ends nothing by itself (the connection's end does) and says nothing;
 * an `error` event fails the reply; JSON data is read like an NDJSON line; any other data is text.
 */
export function ssePiece(event: SseEvent): StreamPiece | null {
  return ssePieceOf(event, jsonPiece);
}

/** ssePiece, JSON data read by `read` (a reader's N8nNodes: n8n chunks sent as events keep their paragraphs). */
function ssePieceOf(event: SseEvent, read: (value: unknown) => StreamPiece | null): StreamPiece | null {
  if (event.data === '[DONE]') return null;
  if (event.event === 'error') return { kind: 'error', message: event.data || AGENT_STREAM_ERROR };
  const trimmed = event.data.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
    const value = parseJson(trimmed);
    if (value !== undefined) return read(value);
  }
  return textPiece(event.data);
}

/**
 * Reads one streamed body chunk by chunk: bytes → text (a UTF-8 character split across chunks is
 * held until its last byte comes) → lines (LineSplitter: linear in the body) → the format's units →
 * pieces. A line longer than MAX_STREAM_LINE ends the stream with an error piece (STREAM_LINE_TOO_LONG);
 * nothing after it is read.
 */
export class StreamReader {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly lines: LineSplitter;
  private readonly sse = new SseEvents();
  private readonly nodes = new N8nNodes();
  private failed = false;

  constructor(
    readonly format: StreamFormat,
    maxLine = MAX_STREAM_LINE,
  ) {
    this.lines = new LineSplitter(format === 'sse', maxLine);
  }

  push(chunk: Uint8Array): StreamPiece[] {
    return this.read(this.decoder.decode(chunk, { stream: true }), false);
  }

  /** The body has ended: what is left (an NDJSON line or SSE event with no final newline) is read too. */
  end(): StreamPiece[] {
    return this.read(this.decoder.decode(), true);
  }

  private read(text: string, last: boolean): StreamPiece[] {
    if (this.failed) return [];
    if (this.format === 'text') return text ? [{ kind: 'text', text }] : [];
    const lines: string[] = [];
    if (!this.lines.push(text, lines)) {
      this.failed = true;
      // What came before the over-long line is read; nothing after it.
      return [...this.pieces(lines, false), { kind: 'error', message: STREAM_LINE_TOO_LONG }];
    }
    if (last) {
      const rest = this.lines.end();
      if (rest !== null) lines.push(rest);
    }
    return this.pieces(lines, last);
  }

  private pieces(lines: string[], last: boolean): StreamPiece[] {
    const pieces: StreamPiece[] = [];
    const add = (piece: StreamPiece | null) => {
      if (piece) pieces.push(piece);
    };
    if (this.format === 'ndjson') {
      for (const line of lines) add(this.nodes.piece(line));
      return pieces;
    }
    const read = (value: unknown) => this.nodes.fromValue(value);
    for (const line of lines) {
      const event = this.sse.line(line);
      if (event) add(ssePieceOf(event, read));
    }
    if (last) {
      const event = this.sse.dispatch();
      if (event) add(ssePieceOf(event, read));
    }
    return pieces;
  }
}

/**
 * A whole streamed body read after the fact (the webhook tester, a stream that came in one chunk):
 * the text of its pieces, or null when it is not an n8n NDJSON or SSE stream.
 */
export function readWholeStream(
  body: string,
): { text: string; error: string | null; files: ReplyFile[] } | null {
  const trimmed = body.trimStart();
  let format: StreamFormat | null = null;
  if (trimmed.startsWith('{')) {
    const newline = trimmed.indexOf('\n');
    const first = newline < 0 ? trimmed : trimmed.slice(0, newline);
    if (isN8nChunk(first.endsWith('\r') ? first.slice(0, -1) : first)) format = 'ndjson';
  } else if (/^(data|event):/.test(trimmed)) format = 'sse';
  if (!format) return null;
  const reader = new StreamReader(format);
  const pieces = [...reader.push(new TextEncoder().encode(body)), ...reader.end()];
  let text = '';
  const files: ReplyFile[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'error') return { text, error: piece.message, files };
    if (piece.kind === 'text') text += piece.text;
    if (piece.kind === 'files') files.push(...piece.files);
  }
  return { text, error: null, files };
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
