import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../../common/company-scope';
import type { ChatView, MessageFeedback, MessageVersionView, MessageView } from '../../contracts/chats';
import { Database, type Tx } from '../../database/database';
import { PREVIEW_STORE_LENGTH } from '../chats.repository';
import type { ReplyInterruption, ReplyStatus } from '../message.entity';
import {
  MESSAGE_VIEW_COLUMNS,
  type MessageRow,
  TOUCHED_CHAT_COLUMNS,
  type TouchedChatRow,
  toMessageView,
  touchedChat,
} from '../messages.repository';

/** The reply asked for again: the user message as now shown, its round, the chat, the replaced reply. */
export interface AskedAgain {
  message: MessageView;
  round: number;
  chat: ChatView;
  replacedReplyId: string | null;
  /** The version the message had before an edit (the audit log's). */
  previousVersion: number;
}

/** Why nothing was asked: the owner has no such message, or the chat's state refuses it. */
export type AskRefusal =
  | 'not_found'
  | 'archived'
  | 'pending'
  | 'not_latest'
  | 'inactive'
  /** Another regenerate, edit or send changed the chat meanwhile. */
  | 'concurrent';

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
 * Regenerate and edit in one statement (one round trip, like a send): lock the owner's chat of the
 * message named ($1: the latest user message, or for a regenerate its reply, or a version of that
 * reply already replaced), read its latest exchange (the last user message sent to the agent and its
 * reply), and when the chat allows it: move the shown reply to its versions (and for an edit, the
 * message's text too), set the message pending for the next round with its new text ($4), drop a
 * callback wait of the round before, move the chat's revision. The update of the message re-checks its
 * round and state on the row as committed: a regenerate that waited for the lock behind another one
 * asks nothing (and every other part hangs off that update); a second pending reply in the chat is
 * refused by UQ_messages_pending.
 */
const ASK_AGAIN_SQL = `WITH chat AS (
   SELECT c.id, c.is_archived, a.is_active AS agent_active, a.is_default AS agent_is_default
   FROM chats c JOIN agents a ON a.id = c.agent_id
   WHERE c.id = coalesce((SELECT x.chat_id FROM messages x WHERE x.id = $1),
                         (SELECT v.chat_id FROM message_versions v WHERE v.id = $1))
     AND c.user_id = $2 AND c.company_id = $3
   FOR UPDATE OF c
 ), latest AS (
   SELECT u.id, u.chat_id, u.sender_id, u.reply_status, u.reply_round, u.version, u.content, u.created_at,
     r.id AS reply_id
   FROM chat ch
   JOIN LATERAL (
     SELECT * FROM messages u WHERE u.chat_id = ch.id AND u.sender_type = 'user' AND u.reply_status IS NOT NULL
     ORDER BY u.seq DESC LIMIT 1
   ) u ON true
   LEFT JOIN messages r ON r.reply_to = u.id
 ), allowed AS (
   SELECT l.* FROM latest l JOIN chat ch ON ch.id = l.chat_id
   WHERE NOT ch.is_archived AND ch.agent_active AND l.reply_status <> 'pending'
     AND (l.id = $1 OR ($4::text IS NULL AND l.reply_id = $1))
 ), asked AS (
   UPDATE messages m SET reply_status = 'pending', reply_round = m.reply_round + 1,
     reply_requested_at = now(), content = coalesce($4::text, m.content),
     version = m.version + CASE WHEN $4::text IS NULL THEN 0 ELSE 1 END
   FROM allowed l
   WHERE m.id = l.id AND m.reply_round = l.reply_round AND m.reply_status <> 'pending'
   RETURNING ${MESSAGE_VIEW_COLUMNS}, m.reply_round
 ), moved AS (
   DELETE FROM messages r USING asked a, allowed l WHERE r.id = l.reply_id AND r.reply_to = a.id
   RETURNING r.*
 ), kept_reply AS (
   INSERT INTO message_versions (id, message_id, chat_id, company_id, sender_type, sender_id, version,
     content, feedback, feedback_reason, interrupted, interrupted_reason, created_at)
   SELECT id, reply_to, chat_id, $3, 'agent', sender_id, version, content, feedback, feedback_reason,
     interrupted, interrupted_reason, created_at FROM moved
 ), kept_text AS (
   INSERT INTO message_versions (id, message_id, chat_id, company_id, sender_type, sender_id, version,
     content, created_at)
   SELECT gen_random_uuid(), l.id, l.chat_id, $3, 'user', l.sender_id, l.version, l.content,
     coalesce((SELECT max(v.replaced_at) FROM message_versions v
               WHERE v.message_id = l.id AND v.sender_type = 'user'), l.created_at)
   FROM allowed l JOIN asked a ON a.id = l.id WHERE $4::text IS NOT NULL
 ), waits AS (
   DELETE FROM agent_callback_waits w USING asked a WHERE w.message_id = a.id
 ), revised AS (
   UPDATE chats c SET revision = c.revision + 1,
     last_message = CASE WHEN a.content <> '' THEN left(a.content, $5) ELSE c.last_message END
   FROM asked a WHERE c.id = a.chat_id
   RETURNING ${TOUCHED_CHAT_COLUMNS}
 )
 SELECT ch.is_archived AS refused_archived, ch.agent_active AS refused_agent_active,
   ch.agent_is_default, l.id AS latest_id, l.reply_id AS latest_reply_id,
   l.reply_status AS latest_status, l.version AS previous_version, a.*, rv.*
 FROM chat ch LEFT JOIN latest l ON true LEFT JOIN asked a ON true LEFT JOIN revised rv ON true`;

type AskRow = MessageRow &
  TouchedChatRow & {
    refused_archived: boolean;
    refused_agent_active: boolean;
    latest_id: string | null;
    latest_reply_id: string | null;
    latest_status: ReplyStatus | null;
    previous_version: number | null;
    reply_round: number | null;
  };

/** The SQL of regenerate and edit, and of reading a message's versions back. */
@Injectable()
export class ReplyVersionsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Asks the chat's agent again for the reply to the chat's latest message (`content`: the message's
   * new text, an edit), in one statement; the refusal when the chat does not allow it.
   */
  async askAgain(
    scope: OwnerScope,
    messageId: string,
    content: string | null,
    tx?: Tx,
  ): Promise<AskedAgain | { refused: AskRefusal }> {
    const rows = await this.db.prepared<AskRow>(
      'chats.ask-again',
      ASK_AGAIN_SQL,
      [messageId, scope.userId, scope.companyId, content, PREVIEW_STORE_LENGTH],
      tx,
    );
    const row = rows[0];
    if (!row) return { refused: 'not_found' };
    if (row.refused_archived) return { refused: 'archived' };
    // One reply in flight per chat: asked while one is, whatever was named, the answer is 409.
    if (row.latest_status === 'pending') return { refused: 'pending' };
    const id = messageId.toLowerCase();
    const named = row.latest_id === id || (content === null && row.latest_reply_id === id);
    if (!row.latest_id || !named) return { refused: 'not_latest' };
    if (!row.refused_agent_active) return { refused: 'inactive' };
    if (!row.id || row.reply_round === null) return { refused: 'concurrent' };
    return {
      message: toMessageView(row),
      round: row.reply_round,
      chat: touchedChat(row, true),
      replacedReplyId: row.latest_reply_id,
      previousVersion: row.previous_version ?? 1,
    };
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
