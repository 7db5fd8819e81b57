import { Injectable } from '@nestjs/common';
import { AuditService } from '../../audit/audit.service';
import type { OwnerScope } from '../../common/company-scope';
import { ConflictError, NotFoundError, ValidationFailedError } from '../../common/domain-errors';
import type { MessageVersions, ReplyRequested } from '../../contracts/chats';
import { Database } from '../../database/database';
import { RealtimePublisher } from '../../realtime/realtime-publisher';
import { AGENT_INACTIVE, CHAT_ARCHIVED, ChatsService, MESSAGE_NOT_FOUND } from '../chats.service';
import { MessagesRepository } from '../messages.repository';
import { type LatestExchange, ReplyVersionsRepository } from './reply-versions.repository';

export const REPLY_STILL_PENDING =
  'The agent is still answering this chat: wait for its reply before asking for another one.';
export const ONLY_LATEST_REPLY = 'Only the latest reply can be regenerated.';
export const ONLY_LATEST_MESSAGE =
  'Only your latest message can be edited: the agent has already answered the ones before it.';
const EMPTY_EDIT = 'Please enter a message';

/** A unique violation (the one-pending-reply index, a version number taken): two requests at once. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { driverError?: { code?: string } })?.driverError?.code === '23505';
}

/**
 * Regenerate and edit. Either asks the chat's agent again for the reply to the chat's latest user
 * message, through the job queue like a first reply: the shown reply moves to its versions, the
 * message waits for the next round. Only the chat's owner, in a chat that is not archived, with no reply
 * in flight. Earlier versions are read back with `versions`.
 */
@Injectable()
export class ReplyVersionsService {
  constructor(
    private readonly database: Database,
    private readonly versionRows: ReplyVersionsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly chats: ChatsService,
    private readonly realtime: RealtimePublisher,
    private readonly audit: AuditService,
  ) {}

  /**
   * Regenerate: `messageId` is the latest reply, or the latest user message (its reply failed or was
   * stopped before any text came, or is shown).
   */
  regenerate(scope: OwnerScope, messageId: string): Promise<ReplyRequested> {
    return this.askAgain(scope, messageId, null);
  }

  /** Edit: the latest user message gets `content` as its next version, and its reply is asked again. */
  edit(scope: OwnerScope, messageId: string, content: string, ip?: string): Promise<ReplyRequested> {
    const text = content.trim();
    if (!text) throw new ValidationFailedError(EMPTY_EDIT);
    return this.askAgain(scope, messageId, { text, ip });
  }

  private async askAgain(
    scope: OwnerScope,
    messageId: string,
    edit: { text: string; ip?: string } | null,
  ): Promise<ReplyRequested> {
    let asked;
    try {
      asked = await this.database.transaction(async (tx) => {
        const chat = await this.versionRows.lockChat(tx, scope, messageId);
        if (!chat) throw new NotFoundError(MESSAGE_NOT_FOUND);
        if (chat.isArchived) throw new ValidationFailedError(CHAT_ARCHIVED);
        const latest = await this.versionRows.latestExchange(tx, chat.chatId);
        // One reply in flight per chat: asked while one is, whatever was named, the answer is 409.
        if (latest?.replyStatus === 'pending') throw new ConflictError(REPLY_STILL_PENDING);
        if (!latest || !this.isTarget(latest, messageId, edit !== null))
          throw new ValidationFailedError(edit ? ONLY_LATEST_MESSAGE : ONLY_LATEST_REPLY);
        if (!chat.agentActive) throw new ValidationFailedError(AGENT_INACTIVE);
        if (latest.replyId)
          await this.versionRows.moveReplyToVersions(tx, scope.companyId, latest.messageId, latest.replyId);
        if (edit) {
          await this.versionRows.keepUserVersion(tx, scope.companyId, chat.chatId, latest);
          await this.audit.record(tx, {
            action: 'message.edited',
            actor: { id: scope.userId },
            target: { type: 'message', id: latest.messageId, label: null },
            company: { id: scope.companyId },
            ip: edit.ip,
            details: { chatId: chat.chatId, version: latest.version + 1 },
          });
        }
        const again = await this.versionRows.askAgain(tx, latest.messageId, edit?.text ?? null);
        return { ...again, replacedReplyId: latest.replyId };
      });
    } catch (error) {
      // A send or another regenerate got there first (the one-pending-reply index refused this one).
      if (isUniqueViolation(error)) throw new ConflictError(REPLY_STILL_PENDING);
      throw error;
    }
    const [message, chat] = await Promise.all([
      this.messageRows.findOwned(scope, asked.messageId),
      this.chats.get(scope, asked.chatId),
    ]);
    if (!message) throw new NotFoundError(MESSAGE_NOT_FOUND); // deleted in between
    const { userId, companyId } = scope;
    const result: ReplyRequested = { message, replacedReplyId: asked.replacedReplyId, chat };
    this.realtime.toUser(userId, 'message.versioned', { companyId, chatId: chat.id, ...result });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId: chat.id, typing: true });
    await this.chats.queueReplyRound(asked.messageId, asked.round, {
      previousReplyId: asked.replacedReplyId,
      edited: edit !== null,
    });
    return result;
  }

  /** The message named is the chat's latest exchange: its user message, or (regenerate) its reply. */
  private isTarget(latest: LatestExchange, messageId: string, editing: boolean): boolean {
    const id = messageId.toLowerCase();
    return latest.messageId === id || (!editing && latest.replyId === id);
  }

  /** Every version of a message of the owner's (a user message's texts, or a reply's answers), oldest first. */
  async versions(scope: OwnerScope, messageId: string): Promise<MessageVersions> {
    const anchor = await this.versionRows.anchorOf(scope, messageId);
    if (!anchor) throw new NotFoundError(MESSAGE_NOT_FOUND);
    const [earlier, current] = await Promise.all([
      this.versionRows.earlierVersions(scope, anchor.anchorId, anchor.senderType),
      this.versionRows.currentVersion(scope, anchor.anchorId, anchor.senderType),
    ]);
    return { messageId, versions: current ? [...earlier, current] : earlier };
  }
}
