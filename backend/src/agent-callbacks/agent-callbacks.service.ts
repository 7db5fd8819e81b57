import { Injectable, Logger } from '@nestjs/common';
import {
  ConflictError,
  GoneError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/domain-errors';
import { isUuid } from '../common/uuid';
import { ChatsService } from '../chats/chats.service';
import { type ReplyStream, ReplyStreamingService } from '../chats/streaming/reply-streaming.service';
import { callbackDeadlineMissed } from '../chats/jobs/stale-reply.sweeper';
import { STREAM_LINE_TOO_LONG, StreamReader, streamFormatOf } from '../webhooks/stream-parsers';
import { MAX_RESPONSE_BYTES } from '../webhooks/webhook-client';
import {
  CALLBACK_BODY_INVALID,
  CALLBACK_STREAM_EMPTY,
  type CallbackReply,
  callbackReplyText,
} from './callback-body';
import { filesOf, type ReplyFile } from '../files/agent-reply-files';
import { AgentCallbackTokensService } from './agent-callback-tokens.service';

export const CALLBACK_TOKEN_REQUIRED =
  'A callback token is required: send the callbackToken you were given as "Authorization: Bearer <token>".';
export const CALLBACK_TOKEN_INVALID = 'This callback token is not valid for this message.';
export const CALLBACK_ALREADY_USED = 'This reply has already been delivered: a message takes one reply.';
export const CALLBACK_EXPIRED = "This callback has expired: the agent's reply deadline has passed.";
export const CALLBACK_MESSAGE_GONE = 'This message no longer exists (its chat was deleted).';
export const CALLBACK_ALREADY_ANSWERED = 'This message has already been answered.';
export const CALLBACK_REPLY_FAILED = 'This message no longer waits for a reply: its reply has failed.';
export const CALLBACK_REPLY_STOPPED = 'This message no longer waits for a reply: the user stopped it.';
export const CALLBACK_TOO_LARGE = 'The reply is larger than 1 MB.';
export const CALLBACK_CUT_SHORT = 'The streamed body was cut short.';
export const CALLBACK_EARLIER_ROUND =
  'This callback is for an earlier request: the user has asked for this reply again since, and only the latest request is answered.';

/** A streamed callback still under way at its deadline: refused (410) like a late one, then cut. */
export class CallbackDeadlineError extends GoneError {
  constructor() {
    super(CALLBACK_EXPIRED);
  }
}

/** A callback the token lets through: the message, and its deadline by this process's clock. */
interface Authorized {
  id: string;
  /** Date.now() at the token's expiry (the database's clock read, a little early rather than late). */
  deadlineAt: number;
  /** The agent's deadline in minutes, when its webhook answered 202 (for the failure's wording). */
  deadlineMinutes: number | null;
  /** The round of the reply the token was given for (the one the message waits for). */
  round: number;
}

function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1] : null;
}

/**
 * POST /api/agent-callbacks/:messageId: an agent that answered 202 Accepted delivers its reply. The
 * token is the only credential: bound to the message, expiring with the agent's deadline, and single
 * use because the message takes one reply (once stored, failed or stopped, every token of the message
 * is refused: "used" is the message's state, not a token row). Nothing changes unless the reply is
 * stored; stored, it takes the job's path (message.created, typing off).
 */
@Injectable()
export class AgentCallbacksService {
  private readonly logger = new Logger('AgentCallbacks');

  constructor(
    private readonly tokens: AgentCallbackTokensService,
    private readonly chats: ChatsService,
    private readonly streaming: ReplyStreamingService,
  ) {}

  /**
   * A JSON body: `{output}` or `[{output}]`, read (`readBody`) only once the token is verified: a forged
   * request costs no parsing of its up to 1 MB.
   */
  async deliver(
    messageId: string,
    authorization: string | undefined,
    readBody: () => Promise<unknown>,
  ): Promise<void> {
    const { id, round } = await this.authorize(messageId, authorization);
    const body = await readBody();
    const files = filesOf(Array.isArray(body) ? (body as unknown[])[0] : body);
    if (files.length) return this.settleWithFiles(id, body, files, round);
    // Read before anything is stored: a body without text changes nothing.
    const text = callbackReplyText(body);
    return this.settle(id, { text }, round);
  }

  /**
   * A callback whose body carries files (text optional): they are fetched or decoded and stored to the
   * chat first, as for a webhook's answer, then the reply with them.
   */
  private async settleWithFiles(id: string, body: unknown, files: ReplyFile[], round: number): Promise<void> {
    let text = '';
    try {
      text = callbackReplyText(body);
    } catch {
      // Files alone are a reply.
    }
    const context = await this.chats.pendingReplyContext(id);
    if (!context) return this.refuseNotWaiting(id);
    const target = { userId: context.userId, companyId: context.companyId, chatId: context.chatId };
    const stored = await this.chats.storeAgentFiles(target, files);
    if (!text && !stored.ids.length) throw new ValidationFailedError(CALLBACK_BODY_INVALID);
    if (await this.chats.storeReply(id, text, stored, round)) return;
    return this.refuseNotWaiting(id);
  }

  /**
   * A streamed body (n8n NDJSON, SSE or plain text) read as it arrives: its text reaches the user's tabs
   * piece by piece (`message.delta`, as a streamed webhook answer does), then is stored once at the end.
   * The token is checked before a byte of the body is read. Stop, pressed meanwhile, ends the upload:
   * what had come is kept (marked stopped) and the agent is told 409.
   */
  async deliverStream(
    messageId: string,
    authorization: string | undefined,
    contentType: string | undefined,
    body: AsyncIterable<Buffer | string>,
  ): Promise<void> {
    const { id, deadlineAt, deadlineMinutes, round } = await this.authorize(messageId, authorization);
    const context = await this.chats.pendingReplyContext(id);
    if (!context) return this.refuseNotWaiting(id);
    // Nothing reaches the tabs from the deadline on, whatever is still on its way.
    const stream = this.streaming.open({ ...context, messageId: id }, { until: deadlineAt });
    const chunks = body[Symbol.asyncIterator]();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), Math.max(0, deadlineAt - Date.now()));
    });
    try {
      const reader = new StreamReader(streamFormatOf(contentType, true) ?? 'text');
      let text = '';
      let error: string | null = null;
      const files: ReplyFile[] = [];
      let size = 0;
      let late = false;
      const take = (pieces: ReturnType<StreamReader['push']>) => {
        for (const piece of pieces) {
          if (error !== null) return;
          if (piece.kind === 'error') error = piece.message;
          else if (piece.kind === 'tool') stream.tool(piece.tool);
          else if (piece.kind === 'files') files.push(...piece.files);
          else {
            text += piece.text;
            stream.push(piece.text);
          }
        }
      };
      try {
        for (;;) {
          // The deadline ends the reading even while the agent is between chunks.
          const next = await Promise.race([chunks.next(), deadline]);
          if (next === 'deadline' || Date.now() >= deadlineAt) {
            late = true;
            break;
          }
          if (next.done) break;
          const chunk = next.value;
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          size += bytes.length;
          if (size > MAX_RESPONSE_BYTES) throw new PayloadTooLargeError(CALLBACK_TOO_LARGE);
          take(reader.push(bytes));
          if (error !== null || stream.signal.aborted) break;
        }
      } catch (cause) {
        if (cause instanceof PayloadTooLargeError) throw cause;
        throw new ValidationFailedError(CALLBACK_CUT_SHORT);
      }
      if (late || Date.now() >= deadlineAt) return await this.expire(id, stream, deadlineMinutes, round);
      if (error === null && !stream.signal.aborted) take(reader.end());
      await stream.flush();
      // Stop stored what had been shown, marked stopped.
      if (stream.signal.aborted) throw new ConflictError(CALLBACK_REPLY_STOPPED);
      if (error === STREAM_LINE_TOO_LONG) {
        this.logger.warn(`Streamed callback for ${id} refused: ${error}`);
        if (text.trim()) await this.streaming.storeInterrupted(id, text, 'error', null, round);
        else await this.settle(id, { error }, round);
        throw new ValidationFailedError(STREAM_LINE_TOO_LONG);
      }
      if (error !== null && text.trim()) {
        // Cut short by the agent after some text, which the user has seen: kept, marked as such.
        await this.streaming.storeInterrupted(id, text, 'error', error, round);
        return;
      }
      if (error === null && files.length) {
        // The end chunk's files, stored to the chat first, then the reply with them (text optional).
        const target = { userId: context.userId, companyId: context.companyId, chatId: context.chatId };
        const stored = await this.chats.storeAgentFiles(target, files);
        if (!text.trim() && !stored.ids.length) throw new ValidationFailedError(CALLBACK_STREAM_EMPTY);
        if (await this.chats.storeReply(id, text, stored)) return;
        return await this.refuseNotWaiting(id);
      }
      if (error === null && !text.trim()) throw new ValidationFailedError(CALLBACK_STREAM_EMPTY);
      await this.settle(id, error !== null ? { error } : { text }, round);
    } finally {
      clearTimeout(timer);
      // A chunk still awaited (the deadline came first) is left to the request, which is cut.
      void chunks.return?.().catch(() => undefined);
      await stream.close();
    }
  }

  /**
   * The deadline came while the agent was still sending: what it sent is dropped (it never reached the
   * tabs after the deadline), the reply fails now with the sweep's reason (not up to a sweep later),
   * and the agent is refused like any late callback.
   */
  private async expire(
    id: string,
    stream: ReplyStream,
    deadlineMinutes: number | null,
    round: number,
  ): Promise<never> {
    await stream.cut();
    if (deadlineMinutes !== null)
      await this.chats.failReply(id, callbackDeadlineMissed(deadlineMinutes), 'callback_expired', round);
    throw new CallbackDeadlineError();
  }

  /**
   * The message id when the presented token is this message's, before its deadline, and the message
   * still waits for its reply; else the refusal. The token is verified without the database; one read
   * then gives the reply's state and the expiry by the database's clock.
   */
  private async authorize(messageId: string, authorization: string | undefined): Promise<Authorized> {
    const presented = bearerToken(authorization);
    if (!presented) throw new UnauthorizedError(CALLBACK_TOKEN_REQUIRED);
    // A malformed or unknown id is refused like a wrong token: without a token of its own, a caller
    // learns nothing about which messages exist.
    const id = messageId.toLowerCase();
    const verified = isUuid(id) ? this.tokens.verify(id, presented) : null;
    if (verified === null) throw new UnauthorizedError(CALLBACK_TOKEN_INVALID);
    // Read before the query: the time left by the database's clock, counted from here, ends early
    // rather than late (by the query's round trip), so nothing is taken past the real deadline.
    const asked = Date.now();
    const check = await this.tokens.check(id, verified.expiresAtMs);
    const { replyStatus, expired, msLeft, deadlineMinutes } = check;
    // The reply was asked for again since this token was given: its answer is not the one waited for.
    if (replyStatus !== null && check.round !== null && verified.round < check.round)
      throw new ConflictError(CALLBACK_EARLIER_ROUND);
    // Used: the reply is stored (by this token, another of the message's, or the webhook's answer).
    if (replyStatus === 'replied') throw new ConflictError(CALLBACK_ALREADY_USED);
    if (expired) throw new GoneError(CALLBACK_EXPIRED);
    if (replyStatus !== 'pending') return this.refuse(replyStatus);
    return { id, deadlineAt: asked + msLeft, deadlineMinutes, round: verified.round };
  }

  /** Stores the reply (or fails it with the agent's error) once; otherwise says why it could not. */
  private async settle(id: string, reply: CallbackReply, round: number): Promise<void> {
    if ('text' in reply && (await this.chats.storeReply(id, reply.text, undefined, round))) return;
    if ('error' in reply && (await this.tokens.replyStatus(id)) === 'pending') {
      // The agent gave up: the user is told now, not at the deadline.
      await this.chats.failReply(id, `The agent reported an error: ${reply.error}`, 'agent_error', round);
      return;
    }
    return this.refuseNotWaiting(id);
  }

  /** Answered, failed, stopped or deleted meanwhile (another callback, the sweep, Stop). */
  private async refuseNotWaiting(id: string): Promise<never> {
    return this.refuse(await this.tokens.replyStatus(id));
  }

  private refuse(status: string | null): never {
    if (status === null) throw new NotFoundError(CALLBACK_MESSAGE_GONE);
    if (status === 'replied') throw new ConflictError(CALLBACK_ALREADY_USED);
    if (status === 'failed') throw new ConflictError(CALLBACK_REPLY_FAILED);
    if (status === 'skipped') throw new ConflictError(CALLBACK_REPLY_STOPPED);
    throw new ConflictError(CALLBACK_ALREADY_ANSWERED);
  }
}
