import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../../common/company-scope';
import type { MessageFeedback, MessageVersionView } from '../../contracts/chats';
import { Database, type Tx } from '../../database/database';
import { PREVIEW_STORE_LENGTH } from '../chats.repository';
import type { ReplyInterruption, ReplyStatus } from '../message.entity';

/** The chat of a message, locked for a regenerate or an edit, and what it allows. */
export interface LockedChat {
  chatId: string;
  isArchived: boolean;
  agentActive: boolean;
}

/**
 * The chat's latest exchange: its last user message sent to the agent (voice turns never are) and the
 * reply to it, if one is stored.
 */
export interface LatestExchange {
  messageId: string;
  senderId: string;
  replyStatus: ReplyStatus;
  round: number;
  version: number;
  content: string;
  /** When the shown text was written: the message's time, or its last edit's. */
  writtenAt: Date;
  replyId: string | null;
}

/** The user message asked again: its id, round and chat. */
export interface AskedAgain {
  messageId: string;
  chatId: string;
  round: number;
}

interface VersionRow {
  id: string;
  version: number;
  content: string;
  created_at: Date;
  feedback: MessageFeedback | null;
  feedback_reason: string | null;
  interrupted: ReplyInterruption | null;
  interrupted_reason: string | null;
}

const toVersionView = (row: VersionRow, current: boolean): MessageVersionView => ({
  id: row.id,
  version: row.version,
  content: row.content,
  timestamp: row.created_at.toISOString(),
  feedback: row.feedback,
  feedbackReason: row.feedback_reason,
  interrupted: row.interrupted,
  interruptedReason: row.interrupted_reason,
  current,
});

/**
 * The SQL of regenerate and edit. A regenerate or an edit runs in one transaction that first locks the
 * chat (`lockChat`), so two of them (or one and a send) take turns; the later one then reads the
 * chat as the first one left it.
 */
@Injectable()
export class ReplyVersionsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Locks the owner's chat holding `messageId` (a message, or a version of one: a reply replaced
   * meanwhile); null when the owner has no such message.
   */
  async lockChat(tx: Tx, scope: OwnerScope, messageId: string): Promise<LockedChat | null> {
    const rows = await this.db.query<{ id: string; is_archived: boolean; agent_active: boolean }>(
      `SELECT c.id, c.is_archived, a.is_active AS agent_active FROM chats c JOIN agents a ON a.id = c.agent_id
       WHERE c.id = coalesce((SELECT x.chat_id FROM messages x WHERE x.id = $1),
                             (SELECT v.chat_id FROM message_versions v WHERE v.id = $1))
         AND c.user_id = $2 AND c.company_id = $3
       FOR UPDATE OF c`,
      [messageId, scope.userId, scope.companyId],
      tx,
    );
    const row = rows[0];
    return row ? { chatId: row.id, isArchived: row.is_archived, agentActive: row.agent_active } : null;
  }

  /** The chat's latest exchange (read after `lockChat`, so as the last change left it). */
  async latestExchange(tx: Tx, chatId: string): Promise<LatestExchange | null> {
    const rows = await this.db.query<{
      id: string;
      sender_id: string;
      reply_status: ReplyStatus;
      reply_round: number;
      version: number;
      content: string;
      written_at: Date;
      reply_id: string | null;
    }>(
      `SELECT u.id, u.sender_id, u.reply_status, u.reply_round, u.version, u.content, r.id AS reply_id,
         coalesce((SELECT max(v.replaced_at) FROM message_versions v
                   WHERE v.message_id = u.id AND v.sender_type = 'user'), u.created_at) AS written_at
       FROM messages u LEFT JOIN messages r ON r.reply_to = u.id
       WHERE u.chat_id = $1 AND u.sender_type = 'user' AND u.reply_status IS NOT NULL
       ORDER BY u.seq DESC LIMIT 1`,
      [chatId],
      tx,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      messageId: row.id,
      senderId: row.sender_id,
      replyStatus: row.reply_status,
      round: row.reply_round,
      version: row.version,
      content: row.content,
      writtenAt: row.written_at,
      replyId: row.reply_id,
    };
  }

  /** Moves a shown reply to its versions (its id, rating and time kept); its row leaves `messages`. */
  async moveReplyToVersions(
    tx: Tx,
    companyId: string,
    userMessageId: string,
    replyId: string,
  ): Promise<void> {
    await this.db.query(
      `WITH moved AS (DELETE FROM messages r WHERE r.id = $1 AND r.reply_to = $2 RETURNING r.*)
       INSERT INTO message_versions (id, message_id, chat_id, company_id, sender_type, sender_id, version,
         content, feedback, feedback_reason, interrupted, interrupted_reason, created_at)
       SELECT id, $2, chat_id, $3, 'agent', sender_id, version, content, feedback, feedback_reason,
         interrupted, interrupted_reason, created_at FROM moved`,
      [replyId, userMessageId, companyId],
      tx,
    );
  }

  /** Keeps the text a user message had before an edit as one of its versions. */
  async keepUserVersion(tx: Tx, companyId: string, chatId: string, exchange: LatestExchange): Promise<void> {
    await this.db.query(
      `INSERT INTO message_versions (id, message_id, chat_id, company_id, sender_type, sender_id, version,
         content, created_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'user', $4, $5, $6, $7)`,
      [
        exchange.messageId,
        chatId,
        companyId,
        exchange.senderId,
        exchange.version,
        exchange.content,
        exchange.writtenAt,
      ],
      tx,
    );
  }

  /**
   * The user message waits for a reply again, of the next round (with `content`: its new text, as its
   * next version); a callback wait of the round before goes, and the chat's revision moves (and its
   * preview shows the message). A second pending reply in the chat is refused by UQ_messages_pending.
   */
  async askAgain(tx: Tx, messageId: string, content: string | null): Promise<AskedAgain> {
    const rows = await this.db.query<{ id: string; chat_id: string; reply_round: number }>(
      `WITH asked AS (
         UPDATE messages m SET reply_status = 'pending', reply_round = m.reply_round + 1,
           reply_requested_at = now(), content = coalesce($2, m.content),
           version = m.version + CASE WHEN $2::text IS NULL THEN 0 ELSE 1 END
         WHERE m.id = $1 RETURNING m.id, m.chat_id, m.reply_round, m.content
       ), waits AS (
         DELETE FROM agent_callback_waits w WHERE w.message_id = $1
       ), revised AS (
         UPDATE chats c SET revision = c.revision + 1,
           last_message = CASE WHEN a.content <> '' THEN left(a.content, $3) ELSE c.last_message END
         FROM asked a WHERE c.id = a.chat_id
       )
       SELECT id, chat_id, reply_round FROM asked`,
      [messageId, content, PREVIEW_STORE_LENGTH],
      tx,
    );
    return { messageId: rows[0].id, chatId: rows[0].chat_id, round: rows[0].reply_round };
  }

  /**
   * The user message a message of the owner's belongs with: itself (a user message), or the one a reply
   * answers; null when the owner has no such message (or it is a voice turn, which has no versions).
   */
  async anchorOf(
    scope: OwnerScope,
    messageId: string,
  ): Promise<{ anchorId: string; senderType: 'user' | 'agent' } | null> {
    const rows = await this.db.query<{ anchor_id: string | null; sender_type: 'user' | 'agent' }>(
      `SELECT CASE WHEN m.sender_type = 'user' THEN m.id ELSE m.reply_to END AS anchor_id, m.sender_type
       FROM messages m JOIN chats c ON c.id = m.chat_id
       WHERE m.id = $1 AND c.user_id = $2 AND c.company_id = $3 AND NOT m.is_voice_message`,
      [messageId, scope.userId, scope.companyId],
    );
    const row = rows[0];
    return row?.anchor_id ? { anchorId: row.anchor_id, senderType: row.sender_type } : null;
  }

  /** The earlier versions of a user message's text or of its reply, oldest first, in the owner's chat. */
  async earlierVersions(
    scope: OwnerScope,
    anchorId: string,
    senderType: 'user' | 'agent',
  ): Promise<MessageVersionView[]> {
    const rows = await this.db.query<VersionRow>(
      `SELECT v.id, v.version, v.content, v.created_at, v.feedback, v.feedback_reason, v.interrupted,
         v.interrupted_reason
       FROM message_versions v JOIN chats c ON c.id = v.chat_id
       WHERE v.message_id = $1 AND v.sender_type = $2 AND v.company_id = $4
         AND c.user_id = $3 AND c.company_id = $4
       ORDER BY v.version`,
      [anchorId, senderType, scope.userId, scope.companyId],
    );
    return rows.map((row) => toVersionView(row, false));
  }

  /** The shown message (the current version): a user message, or the reply to `anchorId`. */
  async currentVersion(
    scope: OwnerScope,
    anchorId: string,
    senderType: 'user' | 'agent',
  ): Promise<MessageVersionView | null> {
    const rows = await this.db.query<VersionRow>(
      `SELECT m.id, m.version, m.content, m.created_at, m.feedback, m.feedback_reason, m.interrupted,
         m.interrupted_reason
       FROM messages m JOIN chats c ON c.id = m.chat_id
       WHERE (CASE WHEN $2 = 'user' THEN m.id = $1 ELSE m.reply_to = $1 END)
         AND c.user_id = $3 AND c.company_id = $4`,
      [anchorId, senderType, scope.userId, scope.companyId],
    );
    return rows[0] ? toVersionView(rows[0], true) : null;
  }
}
