import { Injectable } from '@nestjs/common';
import { AuditService } from '../../audit/audit.service';
import type { OwnerScope } from '../../common/company-scope';
import { ConflictError, NotFoundError, ValidationFailedError } from '../../common/domain-errors';
import type { MessageVersions, ReplyRequested } from '../../contracts/chats';
import { Database } from '../../database/database';
import { RealtimePublisher } from '../../realtime/realtime-publisher';
import { AGENT_INACTIVE, CHAT_ARCHIVED, ChatsService, MESSAGE_NOT_FOUND } from '../chats.service';
import { type AskRefusal, ReplyVersionsRepository } from './reply-versions.repository';

export const REPLY_STILL_PENDING =
  'The agent is still answering this chat: wait for its reply before asking for another one.';
export const ONLY_LATEST_REPLY = 'Only the latest reply can be regenerated.';
export const ONLY_LATEST_MESSAGE =
  'Only your latest message can be edited: the agent has already answered the ones before it.';
const EMPTY_EDIT = 'Please enter a message';

function refusal(reason: AskRefusal, editing: boolean): Error {
  switch (reason) {
    case 'not_found':
      return new NotFoundError(MESSAGE_NOT_FOUND);
    case 'archived':
      return new ValidationFailedError(CHAT_ARCHIVED);
    case 'pending':
    case 'concurrent':
      return new ConflictError(REPLY_STILL_PENDING);
    case 'not_latest':
      return new ValidationFailedError(editing ? ONLY_LATEST_MESSAGE : ONLY_LATEST_REPLY);
    case 'inactive':
      return new ValidationFailedError(AGENT_INACTIVE);
  }
}

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
    let outcome;
    try {
      // A regenerate is one statement; an edit is recorded in the audit log in the same transaction.
      outcome = edit
        ? await this.database.transaction(async (tx) => {
            const asked = await this.versionRows.askAgain(scope, messageId, edit.text, tx);
            if ('refused' in asked) return asked;
            await this.audit.record(tx, {
              action: 'message.edited',
              actor: { id: scope.userId },
              target: { type: 'message', id: asked.message.id, label: null },
              company: { id: scope.companyId },
              ip: edit.ip,
              details: { chatId: asked.chat.id, version: asked.previousVersion + 1 },
            });
            return asked;
          })
        : await this.versionRows.askAgain(scope, messageId, null);
    } catch (error) {
      // A send got there first (the one-pending-reply index refused this one).
      if (isUniqueViolation(error)) throw new ConflictError(REPLY_STILL_PENDING);
      throw error;
    }
    if ('refused' in outcome) throw refusal(outcome.refused, edit !== null);
    const { message, chat, replacedReplyId, round } = outcome;
    const { userId, companyId } = scope;
    const result: ReplyRequested = { message, replacedReplyId, chat };
    this.realtime.toUser(userId, 'message.versioned', { companyId, chatId: chat.id, ...result });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId: chat.id, typing: true });
    await this.chats.queueReplyRound(message.id, round, {
      previousReplyId: replacedReplyId,
      edited: edit !== null,
    });
    return result;
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
