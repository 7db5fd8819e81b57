import { ValidationFailedError } from '../common/domain-errors';
import { StreamReader, streamFormatOf } from '../webhooks/stream-parsers';

export const CALLBACK_BODY_INVALID =
  'The body must be JSON: {"output": "the reply"} or [{"output": "the reply"}], with a non-empty output.';

export const CALLBACK_STREAM_EMPTY = 'The streamed body holds no text.';

/** The media types a callback may stream its reply in (read whole, as the agent's webhook answer is). */
export const STREAMED_CALLBACK_TYPES = [
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'text/event-stream',
  'text/plain',
];

/** A reply delivered by callback: its text, or the error the agent reported instead (n8n `error` chunk). */
export type CallbackReply = { text: string } | { error: string };

/**
 * A streamed callback body (NDJSON as n8n streams it, server-sent events or plain text), read with the
 * webhook client's parsers: the text of its pieces in order, or the agent's error if one comes first.
 */
export function streamedReply(body: string, contentType: string | undefined): CallbackReply {
  const reader = new StreamReader(streamFormatOf(contentType, true) ?? 'text');
  let text = '';
  for (const piece of [...reader.push(Buffer.from(body, 'utf8')), ...reader.end()]) {
    if (piece.kind === 'error') return text.trim() ? { text } : { error: piece.message };
    text += piece.text;
  }
  if (!text.trim()) throw new ValidationFailedError(CALLBACK_STREAM_EMPTY);
  return { text };
}

/** `{output}` or the classic `[{output}]`: the reply's text, or a 400 that says what to send. */
export function callbackReplyText(body: unknown): string {
  const item: unknown = Array.isArray(body) ? body[0] : body;
  const output = item && typeof item === 'object' ? (item as { output?: unknown }).output : undefined;
  if (typeof output === 'string' && output.trim()) return output;
  if (typeof output === 'number' || typeof output === 'boolean') return String(output);
  throw new ValidationFailedError(CALLBACK_BODY_INVALID);
}
