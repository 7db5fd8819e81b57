import { Injectable } from '@nestjs/common';
import { ConflictError, GoneError, NotFoundError, UnauthorizedError } from '../common/domain-errors';
import { isUuid } from '../common/uuid';
import { ChatsService } from '../chats/chats.service';
import { type CallbackReply, callbackReplyText, streamedReply } from './callback-body';
import { AgentCallbackTokensService } from './agent-callback-tokens.service';

export const CALLBACK_TOKEN_REQUIRED =
  'A callback token is required: send the callbackToken you were given as "Authorization: Bearer <token>".';
export const CALLBACK_TOKEN_INVALID = 'This callback token is not valid for this message.';
export const CALLBACK_ALREADY_USED = 'This reply has already been delivered with this token.';
export const CALLBACK_EXPIRED = "This callback has expired: the agent's reply deadline has passed.";
export const CALLBACK_MESSAGE_GONE = 'This message no longer exists (its chat was deleted).';
export const CALLBACK_ALREADY_ANSWERED = 'This message has already been answered.';
export const CALLBACK_REPLY_FAILED = 'This message no longer waits for a reply: its reply has failed.';
export const CALLBACK_REPLY_STOPPED = 'This message no longer waits for a reply: the user stopped it.';
function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1] : null;
}

/**
 * POST /api/agent-callbacks/:messageId: an agent that answered 202 Accepted delivers its reply. The
 * token is the only credential: bound to the message, single use, expiring with the agent's deadline.
 * Nothing changes unless the reply is stored; stored, it takes the job's path (message.created, typing off).
 */
@Injectable()
export class AgentCallbacksService {
  constructor(
    private readonly tokens: AgentCallbackTokensService,
    private readonly chats: ChatsService,
  ) {}

  async deliver(
    messageId: string,
    authorization: string | undefined,
    body: unknown,
    contentType?: string,
  ): Promise<void> {
    const presented = bearerToken(authorization);
    if (!presented) throw new UnauthorizedError(CALLBACK_TOKEN_REQUIRED);
    // A malformed or unknown id is refused like a wrong token: without a token of its own, a caller
    // learns nothing about which messages exist.
    const token = isUuid(messageId) ? await this.tokens.match(messageId.toLowerCase(), presented) : null;
    if (!token) throw new UnauthorizedError(CALLBACK_TOKEN_INVALID);
    if (token.used) throw new ConflictError(CALLBACK_ALREADY_USED);
    if (token.expired) throw new GoneError(CALLBACK_EXPIRED);
    const id = messageId.toLowerCase();
    const reply: CallbackReply =
      typeof body === 'string' ? streamedReply(body, contentType) : { text: callbackReplyText(body) };
    if ('text' in reply && (await this.chats.storeReply(id, reply.text))) {
      await this.tokens.markUsed(token);
      return;
    }
    const status = await this.tokens.replyStatus(id);
    if ('error' in reply && status === 'pending') {
      // The agent gave up: the user is told now, not at the deadline.
      await this.chats.failReply(id, `The agent reported an error: ${reply.error}`);
      await this.tokens.markUsed(token);
      return;
    }
    if (status === null) throw new NotFoundError(CALLBACK_MESSAGE_GONE);
    if (status === 'failed') throw new ConflictError(CALLBACK_REPLY_FAILED);
    if (status === 'skipped') throw new ConflictError(CALLBACK_REPLY_STOPPED);
    throw new ConflictError(CALLBACK_ALREADY_ANSWERED);
  }
}
