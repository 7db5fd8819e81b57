import { createHmac, randomBytes } from 'node:crypto';
import type { ReplyFile } from '../files/agent-reply-files';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { urlToHttpOptions } from 'node:url';
import { Logger } from '@nestjs/common';
import { currentRequestId } from '../logging/request-context';
import { recordWebhookCall, type WebhookOutcomeKind } from '../metrics/metrics';
import { AddressRefusedError, checkWebhookUrl, guardedLookup } from './ssrf-guard';
import {
  readWholeStream,
  type StreamFormat,
  type StreamPiece,
  STREAM_LINE_TOO_LONG,
  StreamReader,
  StreamSniffer,
  streamFormatOf,
} from './stream-parsers';

export const MAX_RESPONSE_BYTES = 1024 * 1024;

const logger = new Logger('Webhook');

// Connections are reused (a TCP handshake per reply cost ~0.6 ms of CPU in the benchmark). Safe with the
// SSRF guard: a pooled socket was checked when it connected, and stays on that address. Pooled per host
// (an agent's n8n is usually one host for every agent): as many sockets as the worker runs jobs at once
// (WORKER_CONCURRENCY, at most 10,000), so waiting on slow agents never queues behind the pool; at most
// 256 idle ones are kept.
const POOL = { keepAlive: true, maxSockets: 10_000, maxFreeSockets: 256, timeout: 60_000 };
const httpAgent = new http.Agent(POOL);
const httpsAgent = new https.Agent(POOL);

export type WebhookOutcome =
  | { kind: 'ok'; status: number; body: string }
  /** The webhook answered with a non-2xx status (3xx included: redirects are not followed). */
  | { kind: 'http_error'; status: number; body: string }
  | { kind: 'timeout' }
  | { kind: 'too_large' }
  | { kind: 'refused'; message: string }
  | { kind: 'network_error'; message: string };

export interface WebhookRequest {
  url: string;
  body: unknown;
  /** Standard Webhooks message id: stable across retries of the same delivery. */
  id: string;
  secret?: string | null;
  timeoutMs: number;
  allowedHosts: ReadonlySet<string>;
}

/** "whsec_" + base64 of 32 random bytes, as Standard Webhooks libraries expect. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Standard Webhooks: base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" with the decoded secret. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * JSON headers plus the Standard Webhooks ones (id, timestamp and, with a secret, the signature), and
 * `X-Request-Id` when the call is made for a request. As a raw list (name, value, ...), which Node
 * writes as given, validating each, without copying it into a header map one by one first; it then
 * adds no `Host` of its own, so the list ends with the one Node put last (the same request bytes).
 */
function webhookHeaders(req: WebhookRequest, payload: string, host: string): string[] {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = [
    'content-type',
    'application/json',
    'accept',
    'application/json',
    'content-length',
    String(Buffer.byteLength(payload)),
    'user-agent',
    'Switchboard-Webhook/1',
    'webhook-id',
    req.id,
    'webhook-timestamp',
    String(timestamp),
  ];
  if (req.secret) headers.push('webhook-signature', signWebhook(req.secret, req.id, timestamp, payload));
  // The request that led to this call (a message POST, through its reply job): one id in both logs.
  const requestId = currentRequestId();
  if (requestId) headers.push('x-request-id', requestId);
  headers.push('Host', host);
  return headers;
}

/** A webhook URL, checked and parsed: what a call to it needs, or why it may not be called. */
type Target =
  | { problem: string }
  | {
      problem: null;
      /** The request's URL parts, as http.request makes them from a URL. */
      options: http.RequestOptions;
      /** host[:port], as in the URL (and in the Host header Node would write). */
      host: string;
      transport: typeof http | typeof https;
      agent: http.Agent;
      lookup: LookupFunction;
    };

/**
 * Targets by allow-list (the reply job's, made once from the configuration) and URL: the check and the
 * parsing depend on nothing else, so an agent's webhook is checked and parsed once, not per message. The
 * addresses a name resolves to are still checked on every connection (guardedLookup). Bounded: past
 * MAX_TARGETS URLs, the map starts again.
 */
const targets = new WeakMap<ReadonlySet<string>, Map<string, Target>>();
const MAX_TARGETS = 1000;

function targetOf(raw: string, allowedHosts: ReadonlySet<string>): Target {
  let known = targets.get(allowedHosts);
  if (!known) targets.set(allowedHosts, (known = new Map()));
  let target = known.get(raw);
  if (!target) {
    target = parseTarget(raw, allowedHosts);
    if (known.size >= MAX_TARGETS) known.clear();
    known.set(raw, target);
  }
  return target;
}

function parseTarget(raw: string, allowedHosts: ReadonlySet<string>): Target {
  const problem = checkWebhookUrl(raw, allowedHosts);
  if (problem) return { problem };
  const url = new URL(raw);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  return {
    problem: null,
    options: urlToHttpOptions(url),
    host: url.host,
    transport: secure ? https : http,
    agent: secure ? httpsAgent : httpAgent,
    lookup: guardedLookup(allowedHosts, port),
  };
}

/** How a streamed answer ended when it did not simply end (the whole text came). */
export type StreamEnding = 'end' | 'error' | 'timeout';

/** What a call made with stream handlers can end with, besides the classic outcomes. */
export type StreamingWebhookOutcome =
  | WebhookOutcome
  /**
   * The answer was a stream (NDJSON, SSE or chunked text): `text` is every piece in order. `error`: the
   * agent sent an error chunk (its message); `timeout`: it stalled after some text had come.
   */
  | {
      kind: 'streamed';
      status: number;
      text: string;
      ending: StreamEnding;
      error?: string;
      /** Files the stream's `end` chunk carried. */
      files?: ReplyFile[];
    }
  /** Ended by the caller's signal (Stop): `text` is what had come. */
  | { kind: 'aborted'; text: string };

/** What a call listens to for the user's Stop: an AbortSignal, or anything with its `aborted` and 'abort'. */
export interface StopListenable {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface StreamHandlers {
  /** Each piece of text as it arrives, in order. */
  onText: (text: string) => void;
  /** The agent started using a tool (its name) or finished (null): a live status, not text. */
  onTool?: (tool: string | null) => void;
  /** Aborts the call (the user pressed Stop). */
  signal?: StopListenable;
  /**
   * The limit on a streamed answer as a whole (default: `timeoutMs`). `timeoutMs` then applies before
   * the answer starts and between its chunks.
   */
  maxDurationMs?: number;
}

/**
 * POSTs JSON to a webhook: SSRF-guarded at connect time, no redirects, a timeout over the whole
 * exchange and a cap on the answer's size. Never throws: every end is an outcome. The answer is read
 * whole (a streamed one too: parseAgentReply reads n8n and SSE bodies after the fact).
 */
export function postWebhook(req: WebhookRequest): Promise<WebhookOutcome> {
  return exchange(req, undefined) as Promise<WebhookOutcome>;
}

/**
 * postWebhook for a reply: a streamed answer (by Content-Type, or an n8n stream sniffed from its first
 * line) is read as it arrives, each piece of text handed to `onText`; the timeout then applies between
 * chunks too. A classic answer is read as postWebhook reads it, at the same cost.
 */
export function postWebhookStreaming(
  req: WebhookRequest,
  stream: StreamHandlers,
): Promise<StreamingWebhookOutcome> {
  return exchange(req, stream);
}

function metricKind(outcome: StreamingWebhookOutcome): WebhookOutcomeKind {
  if (outcome.kind === 'streamed') return outcome.ending === 'timeout' ? 'timeout' : 'ok';
  // Stopped by the user: the agent was answering.
  if (outcome.kind === 'aborted') return 'ok';
  return outcome.kind;
}

/**
 * The stream format a response's headers announce. Read from the raw header list: `response.headers` is
 * built on first access, a cost the classic path did not pay before streaming.
 */
function announcedFormat(rawHeaders: string[]): StreamFormat | null {
  let contentType: string | undefined;
  let chunked = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length === 12 && name.toLowerCase() === 'content-type') contentType = rawHeaders[i + 1];
    else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding')
      chunked = /chunked/i.test(rawHeaders[i + 1]);
  }
  return streamFormatOf(contentType, chunked);
}

function exchange(req: WebhookRequest, stream: StreamHandlers | undefined): Promise<StreamingWebhookOutcome> {
  const started = performance.now();
  const target = targetOf(req.url, req.allowedHosts);
  if (target.problem !== null) {
    recordWebhookCall('refused', 0, started);
    return Promise.resolve({ kind: 'refused', message: target.problem });
  }
  if (stream?.signal?.aborted) return Promise.resolve({ kind: 'aborted', text: '' });
  const payload = JSON.stringify(req.body);
  const headers = webhookHeaders(req, payload, target.host);

  return new Promise((resolve) => {
    let settled = false;
    /** The text a stream has given so far. */
    let text = '';
    let streaming = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      finish({ kind: 'aborted', text });
      request.destroy();
    };
    const finish = (outcome: StreamingWebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(idleTimer);
      stream?.signal?.removeEventListener('abort', onAbort);
      recordWebhookCall(metricKind(outcome), 'status' in outcome ? outcome.status : 0, started);
      resolve(outcome);
    };
    const timedOut = (status: number) => {
      // A stall after some text: that text is not lost (the caller keeps it, marked). Before any: retried.
      finish(streaming && text ? { kind: 'streamed', status, text, ending: 'timeout' } : { kind: 'timeout' });
      request.destroy();
    };
    const request = target.transport.request(
      { ...target.options, method: 'POST', headers, lookup: target.lookup, agent: target.agent },
      (response) => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const announced = stream && ok ? announcedFormat(response.rawHeaders) : null;
        let reader: StreamReader | null = null;
        // No stream announced: an n8n stream still shows itself on its first line (each chunk looked at
        // once: only the new one is searched for the first line's end).
        let sniffing = stream !== undefined && ok && announced === null;
        const sniffer = sniffing ? new StreamSniffer() : null;
        // Chunked plain text is a stream once a second piece comes: a text answer sent in one piece is
        // read the classic way (the spec's apology), as before streaming.
        let textOnSecondChunk = announced === 'text';
        const chunks: Buffer[] = [];
        const files: ReplyFile[] = [];
        let size = 0;

        const read = (pieces: StreamPiece[]) => {
          for (const piece of pieces) {
            if (piece.kind === 'error') {
              if (piece.message === STREAM_LINE_TOO_LONG)
                logger.warn(
                  `Streamed answer from ${target.host} (message ${req.id}) refused: ${piece.message}`,
                );
              finish({ kind: 'streamed', status, text, ending: 'error', error: piece.message });
              request.destroy();
              return;
            }
            if (piece.kind === 'tool') {
              stream?.onTool?.(piece.tool);
              continue;
            }
            if (piece.kind === 'files') {
              files.push(...piece.files);
              continue;
            }
            text += piece.text;
            stream?.onText(piece.text);
          }
        };
        const startStreaming = (format: StreamFormat) => {
          reader = new StreamReader(format);
          streaming = true;
          clearTimeout(timer);
          const left = (stream?.maxDurationMs ?? req.timeoutMs) - (performance.now() - started);
          timer = setTimeout(() => timedOut(status), Math.max(0, left));
          // From now on the timeout runs between chunks (the first one included).
          clearTimeout(idleTimer);
          idleTimer = setTimeout(() => timedOut(status), req.timeoutMs);
        };
        if (announced && announced !== 'text') startStreaming(announced);

        response.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            finish({ kind: 'too_large' });
            request.destroy();
            return;
          }
          if (streaming) {
            clearTimeout(idleTimer);
            idleTimer = setTimeout(() => timedOut(status), req.timeoutMs);
          }
          if (reader) return read(reader.push(chunk));
          chunks.push(chunk);
          if (textOnSecondChunk && chunks.length > 1) {
            textOnSecondChunk = false;
            startStreaming('text');
            read((reader as StreamReader | null)?.push(Buffer.concat(chunks)) ?? []);
            chunks.length = 0;
            return;
          }
          if (!sniffing || !sniffer) return;
          // The classic answer (`[{"output": ...}]`) is known by its first byte, without decoding anything.
          const verdict = sniffer.push(chunk);
          if (verdict === null) return;
          sniffing = false;
          if (verdict === 'classic') return;
          startStreaming('ndjson');
          read((reader as StreamReader | null)?.push(Buffer.concat(chunks)) ?? []);
          chunks.length = 0;
        });
        response.on('end', () => {
          if (settled) return;
          if (reader) {
            read(reader.end());
            finish({ kind: 'streamed', status, text, ending: 'end', ...(files.length ? { files } : {}) });
            return;
          }
          const body = Buffer.concat(chunks).toString('utf8');
          // A one-line n8n stream (or one that came whole) is still a stream.
          const whole = sniffing ? readWholeStream(body) : null;
          if (whole) {
            if (whole.text) stream?.onText(whole.text);
            text = whole.text;
            finish(
              whole.error === null
                ? {
                    kind: 'streamed',
                    status,
                    text,
                    ending: 'end',
                    ...(whole.files.length ? { files: whole.files } : {}),
                  }
                : { kind: 'streamed', status, text, ending: 'error', error: whole.error },
            );
            return;
          }
          finish(ok ? { kind: 'ok', status, body } : { kind: 'http_error', status, body });
        });
        response.on('error', (error) => finish({ kind: 'network_error', message: error.message }));
      },
    );
    let timer = setTimeout(() => timedOut(0), req.timeoutMs);
    // No `once`: finish() removes it, and it runs at most once (finish settles the call first).
    stream?.signal?.addEventListener('abort', onAbort);
    request.on('error', (error) => {
      if (error instanceof AddressRefusedError) finish({ kind: 'refused', message: error.message });
      else finish({ kind: 'network_error', message: error.message });
    });
    request.end(payload);
  });
}

export const SORRY_REPLY = "Sorry, I couldn't process your request correctly.";

/**
 * The spec's reading of an agent's answer: `[{"output": "..."}]`; a whole n8n (NDJSON) or SSE stream
 * gives its text; anything else is the apology.
 */
export function parseAgentReply(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (Array.isArray(parsed) && parsed.length > 0) {
      const output = (parsed[0] as { output?: unknown } | null)?.output;
      if (typeof output === 'string' && output.trim()) return output;
      if (output !== undefined && output !== null && typeof output !== 'object') return String(output);
    }
  } catch {
    const streamed = readWholeStream(body);
    if (streamed && !streamed.error && streamed.text.trim()) return streamed.text;
  }
  return SORRY_REPLY;
}
