import express from 'express';
import type { Request, Response } from 'express';
import { ValidationFailedError } from '../common/domain-errors';
import { findHostileText, refuseDeepJson } from '../common/hostile-body';
import { MAX_RESPONSE_BYTES } from '../webhooks/webhook-client';

/**
 * The callback route's paths (as Express matches routes: any case, with or without a trailing part).
 * The global JSON parser leaves them alone: their body is read after the token (readCallbackJson).
 */
export const AGENT_CALLBACK_PATH = /^\/api\/agent-callbacks(\/|$)/i;

/** As much as a webhook answer may hold; refused deep nesting before parsing, as on every route. */
const parseCallbackJson = express.json({ limit: MAX_RESPONSE_BYTES, verify: refuseDeepJson });

/**
 * A JSON callback body, read and parsed now (after the token was verified): what the global parser
 * and refuseHostileText do for other routes, with the same errors (400 not JSON or too deep, 413).
 * Not JSON by Content-Type: undefined, as the parser leaves it.
 */
export async function readCallbackJson(req: Request, res: Response): Promise<unknown> {
  await new Promise<void>((resolve, reject) =>
    parseCallbackJson(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())),
  );
  const body: unknown = req.body;
  const problem = findHostileText(body);
  if (problem) throw new ValidationFailedError(problem);
  return body;
}

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
