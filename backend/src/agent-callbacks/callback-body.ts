import { ValidationFailedError } from '../common/domain-errors';

export const CALLBACK_BODY_INVALID =
  'The body must be JSON: {"output": "the reply"} or [{"output": "the reply"}], with a non-empty output.';

export const CALLBACK_STREAM_EMPTY = 'The streamed body holds no text.';

/** The media types a callback may stream its reply in, read as they arrive like a streamed webhook answer. */
export const STREAMED_CALLBACK_TYPES = [
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'text/event-stream',
  'text/plain',
];

/** A reply delivered by callback: its text, or the error the agent reported instead (n8n `error` chunk). */
export type CallbackReply = { text: string } | { error: string };

/** True when the body is one of STREAMED_CALLBACK_TYPES: it is read as it arrives, not parsed as JSON. */
export function isStreamedCallback(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return STREAMED_CALLBACK_TYPES.includes(type);
}

/** `{output}` or the classic `[{output}]`: the reply's text, or a 400 that says what to send. */
export function callbackReplyText(body: unknown): string {
  const item: unknown = Array.isArray(body) ? body[0] : body;
  const output = item && typeof item === 'object' ? (item as { output?: unknown }).output : undefined;
  if (typeof output === 'string' && output.trim()) return output;
  if (typeof output === 'number' || typeof output === 'boolean') return String(output);
  throw new ValidationFailedError(CALLBACK_BODY_INVALID);
}
