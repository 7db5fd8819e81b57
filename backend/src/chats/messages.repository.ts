import { Injectable } from '@nestjs/common';
import type { MessageFeedback } from '../contracts/chats';
import type { OwnerScope } from '../common/company-scope';
import type { ChatView, MessageView } from '../realtime/client-events';
import { PENDING_REPLY, PREVIEW_STORE_LENGTH, toChatView } from './chats.repository';
import type { ReplyInterruption, ReplyStatus, SenderType } from './message.entity';
import { Database, type Tx } from '../database/database';
import type { FailureKind } from '../insights/insight-buckets';
import { type DeliveryRecord, recordDeliverySql, recordParams } from '../deliveries/deliveries.repository';

export interface MessageRow {
  id: string;
  seq: string;
  chat_id: string;
  sender_id: string;
  sender_type: SenderType;
  content: string;
  is_voice_message: boolean;
  feedback: MessageFeedback | null;
  feedback_reason?: string | null;
  interrupted: ReplyInterruption | null;
  interrupted_reason?: string | null;
  version?: number;
  created_at: Date;
}

/** The longest agent error message kept with a reply cut short (the column's length). */
const INTERRUPTED_REASON_MAX = 500;

/** The message view's columns. Qualified: an ORDER BY seq would otherwise sort by the text alias. */
export const MESSAGE_VIEW_COLUMNS =
  'm.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type, m.content, m.is_voice_message, m.feedback, m.feedback_reason, m.interrupted, m.interrupted_reason, m.version, m.created_at';

export function toMessageView(row: MessageRow): MessageView {
  return {
    id: row.id,
    chatId: row.chat_id,
    senderId: row.sender_id,
    senderType: row.sender_type,
    content: row.content,
    timestamp: row.created_at.toISOString(),
    isVoiceMessage: row.is_voice_message,
    feedback: row.feedback,
    feedbackReason: row.feedback_reason ?? null,
    seq: row.seq,
    interrupted: row.interrupted,
    interruptedReason: row.interrupted_reason ?? null,
    version: row.version ?? 1,
  };
}

/** A stored message, with its exact creation time (the view's timestamp is rounded to milliseconds). */
export interface StoredMessage {
  message: MessageView;
  createdAt: Date;
}

export interface NewMessage {
  chatId: string;
  senderId: string;
  senderType: SenderType;
  content: string;
  /** 'pending' on a user message that waits for its agent's reply. */
  replyStatus?: ReplyStatus | null;
}

/** A voice call's transcript turn: a voice message, never answered by the webhook. */
export interface NewVoiceTurn {
  chatId: string;
  senderId: string;
  senderType: SenderType;
  content: string;
  /** "{conversationId}:{eventId}", unique per chat. */
  voiceEventId: string;
}

/** A rated reply, its chat and its agent: what the `feedback` event job reads. */
export interface FeedbackTarget {
  replyId: string;
  /** The user message the reply answers (null for a voice turn). */
  messageId: string | null;
  chatId: string;
  userId: string;
  companyId: string;
  agentId: string;
  agentIsDefault: boolean;
  webhook: string | null;
  signingSecret: string | null;
  sendFeedback: boolean;
  isVoiceMessage: boolean;
}

/** Where a reply goes: the chat of a user message and that chat's owner and agent. */
export interface ReplyTarget {
  chatId: string;
  userId: string;
  companyId: string;
  agentId: string;
}

/** The agent a reply job calls: what it needs of the chat's agent row. */
export interface ReplyAgent {
  id: string;
  isDefault: boolean;
  webhook: string;
  signingSecret: string | null;
  /** A callback token issued now expires then: the database's clock plus the agent's deadline (Unix ms). */
  callbackExpiresAt: number;
  callbackDeadlineMinutes: number;
  /** Files go in the body as base64 instead of links. */
  sendFilesInline?: boolean;
}

export interface PendingReply extends ReplyTarget {
  message: MessageView;
  /** The round of the reply asked for (0: the first answer; one more per regenerate or edit). */
  round: number;
  /** When that round was asked for (the message's time for the first answer). */
  askedAt: string;
  /** The message carries files (their links go in the webhook body). */
  hasFiles?: boolean;
  /** Null when the chat's agent no longer exists (for its owner). */
  agent: ReplyAgent | null;
}

/** A reply stored: whom to tell, the message, and the chat as the list now shows it. */
export interface StoredReply {
  userId: string;
  companyId: string;
  message: MessageView;
  chat: ChatView;
}

/**
 * A user message stored (with the chat as the list now shows it, and, sent outside a transaction, what
 * its reply job's first attempt needs: `firstReply`), or why the chat refused it.
 */
export type SendOutcome =
  | (StoredMessage & { chat: ChatView; firstReply?: PendingReply })
  | { refused: 'not_found' | 'archived' | 'pending' | 'inactive' };

/**
 * The chat columns an UPDATE ... RETURNING gives back next to a message's (`m.*, c.*`), prefixed so
 * that none shadows a message column.
 */
export const TOUCHED_CHAT_COLUMNS = `c.id AS chat_row_id, c.company_id AS chat_company_id, c.agent_id AS chat_agent_id,
  c.title AS chat_title, c.is_archived AS chat_is_archived, c.last_message AS chat_last_message,
  c.last_message_at AS chat_last_message_at, c.created_at AS chat_created_at, c.updated_at AS chat_updated_at`;

export interface TouchedChatRow {
  agent_is_default: boolean;
  chat_row_id: string;
  chat_company_id: string;
  chat_agent_id: string;
  chat_title: string;
  chat_is_archived: boolean;
  chat_last_message: string | null;
  chat_last_message_at: Date | null;
  chat_created_at: Date;
  chat_updated_at: Date;
}

export function touchedChat(row: TouchedChatRow, pendingReply: boolean): ChatView {
  return chatOfRow(row, row.chat_row_id, row.chat_last_message_at, row.chat_updated_at, pendingReply);
}

/** A chat's view from a statement's `chat_*` columns and what the statement knows besides them. */
function chatOfRow(
  row: MovedChatRow,
  id: string,
  lastMessageAt: Date | null,
  updatedAt: Date,
  pendingReply: boolean,
): ChatView {
  return toChatView({
    id,
    company_id: row.chat_company_id,
    agent_id: row.chat_agent_id,
    agent_is_default: row.agent_is_default,
    title: row.chat_title,
    is_archived: row.chat_is_archived,
    last_message: row.chat_last_message,
    last_message_at: lastMessageAt,
    pending_reply: pendingReply,
    created_at: row.chat_created_at,
    updated_at: updatedAt,
  });
}

/**
 * What the message path's statements (send, store a reply) take back of the chat they move up: not its
 * id (the message's chat), nor its last message time and update time (the UPDATE sets both to the
 * message's creation time), which spares pg a field and a timestamp parse for each on every message.
 */
const MOVED_CHAT_COLUMNS = `c.company_id AS chat_company_id, c.agent_id AS chat_agent_id, c.title AS chat_title,
  c.is_archived AS chat_is_archived, c.last_message AS chat_last_message, c.created_at AS chat_created_at`;

type MovedChatRow = Omit<TouchedChatRow, 'chat_row_id' | 'chat_last_message_at' | 'chat_updated_at'>;

/** The chat a message moved up (MOVED_CHAT_COLUMNS), as the list now shows it. */
function movedChat(row: MessageRow & MovedChatRow, pendingReply: boolean): ChatView {
  return chatOfRow(row, row.chat_id, row.created_at, row.created_at, pendingReply);
}

/**
 * The chat's agent as the reply job calls it (PENDING_REPLY_SQL's columns), read by the send for the job's
 * first attempt: whether it is the owner's (the job's own read finds no agent otherwise), its webhook,
 * secret and options, and when a callback token issued now expires (the database's clock).
 */
const SENT_AGENT_COLUMNS = `a.user_id = c.user_id AND a.company_id = c.company_id AS agent_owned,
   a.webhook AS agent_webhook, a.signing_secret AS agent_signing_secret,
   a.callback_deadline_minutes AS agent_callback_minutes, a.send_files_inline AS agent_files_inline,
   (floor(extract(epoch FROM now()) * 1000) + 60000 * a.callback_deadline_minutes)::float8 AS agent_callback_expires_at`;

/** The message path's statements: fixed texts, run as named prepared statements (Database.prepared). */
const SEND_SQL = `WITH target AS (
   SELECT c.id, c.is_archived, a.is_active AS agent_active, a.is_default AS agent_is_default,
     ${PENDING_REPLY} AS pending, ${SENT_AGENT_COLUMNS}
   FROM chats c JOIN agents a ON a.id = c.agent_id
   WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3
   FOR UPDATE OF c
 ), stored AS (
   INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_status)
   SELECT t.id, $2, 'user', $4, 'pending' FROM target t
   WHERE NOT t.is_archived AND NOT t.pending AND t.agent_active
   ON CONFLICT (chat_id) WHERE reply_status = 'pending' DO NOTHING
   RETURNING ${MESSAGE_VIEW_COLUMNS}
 ), touched AS (
   UPDATE chats c SET last_message = $5, last_message_at = m.created_at, updated_at = m.created_at
   FROM stored m WHERE c.id = m.chat_id
   RETURNING ${MOVED_CHAT_COLUMNS}
 )
 SELECT t.is_archived AS refused_archived, t.agent_active, t.pending, t.agent_is_default, t.agent_owned,
   t.agent_webhook, t.agent_signing_secret, t.agent_callback_minutes, t.agent_files_inline,
   t.agent_callback_expires_at, m.*, c.*
 FROM target t LEFT JOIN stored m ON true LEFT JOIN touched c ON true`;

const PENDING_REPLY_SQL = `SELECT ${MESSAGE_VIEW_COLUMNS}, m.reply_round, m.reply_requested_at, c.user_id, c.company_id, c.agent_id, a.id AS agent_found,
   a.is_default AS agent_is_default, a.webhook AS agent_webhook, a.signing_secret AS agent_signing_secret,
   a.callback_deadline_minutes AS agent_callback_minutes, a.send_files_inline AS agent_files_inline,
   (floor(extract(epoch FROM now()) * 1000) + 60000 * a.callback_deadline_minutes)::float8 AS agent_callback_expires_at,
   EXISTS (SELECT 1 FROM files f WHERE f.message_id = m.id) AS has_files
 FROM messages m JOIN chats c ON c.id = m.chat_id
 LEFT JOIN agents a ON a.id = c.agent_id AND a.user_id = c.user_id AND a.company_id = c.company_id
 WHERE m.id = $1 AND m.sender_type = 'user' AND m.reply_status = 'pending'`;

/**
 * Stores a reply (below); `logged`: with the delivery log's row of the webhook call that brought it, in
 * the same statement (one commit), written only when the reply is.
 */
const storeReplySql = (logged: boolean) => `WITH target AS (
   SELECT m.id, m.chat_id, m.reply_round, c.agent_id, c.user_id, c.company_id FROM messages m
   JOIN chats c ON c.id = m.chat_id
   WHERE m.id = $1 AND m.reply_status = 'pending' AND ($6::int IS NULL OR m.reply_round = $6::int)
   FOR UPDATE OF m
 ), stored AS (
   INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_to, interrupted, interrupted_reason, version)
   SELECT t.chat_id, t.agent_id, 'agent', $2, t.id, $4, $5,
     -- A regenerated answer follows the versions before it (read only then: a first answer is 1).
     CASE WHEN t.reply_round = 0 THEN 1 ELSE (SELECT coalesce(max(v.version), 0) + 1 FROM message_versions v
       WHERE v.message_id = t.id AND v.sender_type = 'agent') END
   FROM target t
   ON CONFLICT DO NOTHING
   RETURNING ${MESSAGE_VIEW_COLUMNS}
 ), replied AS (
   UPDATE messages m SET reply_status = 'replied' FROM target t WHERE m.id = t.id
 ), touched AS (
   UPDATE chats c SET last_message = $3, last_message_at = m.created_at, updated_at = m.created_at
   FROM stored m WHERE c.id = m.chat_id
   RETURNING ${MOVED_CHAT_COLUMNS}
 ), delivered AS (
   -- A delivery the agent accepted (202) is done once its callback's reply is stored.
   UPDATE webhook_deliveries d SET outcome = 'delivered', reply_id = m.id FROM target t, stored m
   WHERE d.message_id = t.id AND d.round = t.reply_round AND d.outcome = 'accepted'
 )${
   logged
     ? `, logged AS (
 ${recordDeliverySql(7, '(SELECT s.id FROM stored s)', 'EXISTS (SELECT 1 FROM stored)')}
 )`
     : ''
 }
 SELECT t.user_id, t.company_id, a.is_default AS agent_is_default, m.*, c.*
 FROM target t JOIN agents a ON a.id = t.agent_id
 JOIN stored m ON true JOIN touched c ON true`;
const STORE_REPLY_SQL = storeReplySql(false);
const STORE_REPLY_LOGGED_SQL = storeReplySql(true);

/** The agent's columns the reply job needs, as the send and the pending-reply read name them. */
interface ReplyAgentRow {
  agent_is_default: boolean;
  agent_webhook: string;
  agent_signing_secret: string | null;
  agent_callback_minutes: number;
  agent_files_inline: boolean;
  agent_callback_expires_at: number;
}

const toReplyAgent = (id: string, row: ReplyAgentRow): ReplyAgent => ({
  id,
  isDefault: row.agent_is_default,
  webhook: row.agent_webhook,
  signingSecret: row.agent_signing_secret,
  callbackExpiresAt: row.agent_callback_expires_at,
  callbackDeadlineMinutes: row.agent_callback_minutes,
  sendFilesInline: row.agent_files_inline,
});

type SendRow = MessageRow &
  MovedChatRow &
  ReplyAgentRow & {
    refused_archived: boolean;
    agent_active: boolean;
    pending: boolean;
    agent_owned: boolean;
  };
type ReplyRow = MessageRow & MovedChatRow & { user_id: string; company_id: string };

/**
 * A reply the agent accepted with 202: its job is done (nothing to queue again) and it waits for a
 * callback until the agent's deadline, which the sweep enforces (agent-callbacks/).
 */
/** When a pending reply was asked for: the message's time, or the regenerate's (or edit's). */
const ASKED_AT = 'coalesce(m.reply_requested_at, m.created_at)';

const NOT_AWAITING_CALLBACK = `NOT EXISTS (SELECT 1 FROM agent_callback_waits w WHERE w.message_id = m.id)`;

/** A reply marked failed: whom to tell. */
export interface FailedReply {
  messageId: string;
  chatId: string;
  userId: string;
  companyId: string;
  agentId: string;
}

type FailedRow = { id: string; chat_id: string; user_id: string; company_id: string; agent_id: string };
const toFailedReply = (row: FailedRow): FailedReply => ({
  messageId: row.id,
  chatId: row.chat_id,
  userId: row.user_id,
  companyId: row.company_id,
  agentId: row.agent_id,
});

/**
 * The reply job's context for a message the send just stored, as findPendingReply would read it right
 * after: round 0, asked at the message's time, no files yet, the chat's agent (the owner's).
 */
function firstReplyOf(message: MessageView, row: SendRow): PendingReply {
  return {
    message,
    round: 0,
    askedAt: message.timestamp,
    chatId: message.chatId,
    // As the database spells them (the chat matched the owner's ids): the sender is the chat's owner.
    userId: message.senderId,
    companyId: row.chat_company_id,
    agentId: row.chat_agent_id,
    hasFiles: false,
    agent: toReplyAgent(row.chat_agent_id, row),
  };
}

/**
 * The SQL of messages. Reads by chat take a chat id the caller has already checked against its owner;
 * the reply job's statements go by message id (a job has ids, not a request).
 */
@Injectable()
export class MessagesRepository {
  constructor(private readonly db: Database) {}

  /**
   * A page of a chat's messages, oldest first. `before` pages back through history; `after` returns
   * what came since a message a client already has (resync after a reconnect).
   */
  async page(
    chatId: string,
    page: { before?: string; after?: string; limit: number },
  ): Promise<{ messages: MessageView[]; hasMore: boolean }> {
    const { limit } = page;
    if (page.after) {
      const rows: MessageRow[] = await this.db.query(
        `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m WHERE m.chat_id = $1 AND m.seq > $2
         ORDER BY m.seq ASC LIMIT $3`,
        [chatId, page.after, limit + 1],
      );
      return { messages: rows.slice(0, limit).map(toMessageView), hasMore: rows.length > limit };
    }
    const rows: MessageRow[] = await this.db.query(
      `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m
       WHERE m.chat_id = $1 AND ($2::bigint IS NULL OR m.seq < $2::bigint)
       ORDER BY m.seq DESC LIMIT $3`,
      [chatId, page.before ?? null, limit + 1],
    );
    return { messages: rows.slice(0, limit).reverse().map(toMessageView), hasMore: rows.length > limit };
  }

  async insert(input: NewMessage, tx?: Tx): Promise<StoredMessage> {
    const rows: MessageRow[] = await this.db.query(
      `INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_status)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${MESSAGE_VIEW_COLUMNS}`,
      [input.chatId, input.senderId, input.senderType, input.content, input.replyStatus ?? null],
      tx,
    );
    return { message: toMessageView(rows[0]), createdAt: rows[0].created_at };
  }

  /**
   * Stores a voice turn once: the unique (chat_id, voice_event_id) index makes a second save of the same
   * turn a no-op (null then). No reply status: the webhook never answers a voice message.
   */
  async insertVoiceTurn(tx: Tx, input: NewVoiceTurn): Promise<StoredMessage | null> {
    const rows: MessageRow[] = await this.db.query(
      `INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, is_voice_message, voice_event_id)
       VALUES ($1, $2, $3, $4, true, $5)
       ON CONFLICT (chat_id, voice_event_id) WHERE voice_event_id IS NOT NULL DO NOTHING
       RETURNING ${MESSAGE_VIEW_COLUMNS}`,
      [input.chatId, input.senderId, input.senderType, input.content, input.voiceEventId],
      tx,
    );
    return rows[0] ? { message: toMessageView(rows[0]), createdAt: rows[0].created_at } : null;
  }

  /** The message already stored for a voice turn of a chat the caller has checked. */
  async findVoiceTurn(chatId: string, voiceEventId: string, tx?: Tx): Promise<MessageView | null> {
    const rows: MessageRow[] = await this.db.query(
      `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m WHERE m.chat_id = $1 AND m.voice_event_id = $2`,
      [chatId, voiceEventId],
      tx,
    );
    return rows[0] ? toMessageView(rows[0]) : null;
  }

  /** A message of one of the owner's chats; null when the owner has no such message. */
  async findOwned(scope: OwnerScope, messageId: string): Promise<MessageView | null> {
    const rows: MessageRow[] = await this.db.query(
      `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m JOIN chats c ON c.id = m.chat_id
       WHERE m.id = $1 AND c.user_id = $2 AND c.company_id = $3`,
      [messageId, scope.userId, scope.companyId],
    );
    return rows[0] ? toMessageView(rows[0]) : null;
  }

  /**
   * Rates an agent's reply (or takes the rating back: null) in one of the owner's chats that is not
   * archived, in one statement; `voiceOnly` limits it to voice turns. Null when nothing was rated
   * (ratingRefusal says why).
   */
  async rateReply(
    scope: OwnerScope,
    messageId: string,
    rating: { score: MessageFeedback | null; reason: string | null; voiceOnly: boolean },
  ): Promise<MessageView | null> {
    // The chat's revision moves with it: a tab that was offline then catches the rating up.
    const rows = await this.db.query<MessageRow>(
      `WITH rated AS (
         UPDATE messages m SET feedback = $4, feedback_reason = $5 FROM chats c
         WHERE m.id = $1 AND c.id = m.chat_id AND c.user_id = $2 AND c.company_id = $3
           AND m.sender_type = 'agent' AND NOT c.is_archived AND (m.is_voice_message OR NOT $6::boolean)
         RETURNING ${MESSAGE_VIEW_COLUMNS}
       ), revised AS (
         UPDATE chats c SET revision = c.revision + 1 FROM rated r WHERE c.id = r.chat_id
       )
       SELECT * FROM rated`,
      [messageId, scope.userId, scope.companyId, rating.score, rating.reason, rating.voiceOnly],
    );
    return rows[0] ? toMessageView(rows[0]) : null;
  }

  /** Why rateReply rated nothing: no such message of the owner's, or what it is and where. */
  async ratingRefusal(
    scope: OwnerScope,
    messageId: string,
  ): Promise<{ senderType: SenderType; isVoiceMessage: boolean; archived: boolean } | null> {
    const rows = await this.db.query<{
      sender_type: SenderType;
      is_voice_message: boolean;
      is_archived: boolean;
    }>(
      `SELECT m.sender_type, m.is_voice_message, c.is_archived FROM messages m JOIN chats c ON c.id = m.chat_id
       WHERE m.id = $1 AND c.user_id = $2 AND c.company_id = $3`,
      [messageId, scope.userId, scope.companyId],
    );
    const row = rows[0];
    return row
      ? { senderType: row.sender_type, isVoiceMessage: row.is_voice_message, archived: row.is_archived }
      : null;
  }

  /**
   * What a `feedback` event about a reply needs: the reply's rating as stored now, the user message it
   * answers, its chat and owner, and the chat's agent (its webhook, secret and opt-in). Null when the
   * reply is gone.
   */
  async feedbackTarget(replyId: string): Promise<FeedbackTarget | null> {
    const rows = await this.db.query<FeedbackTarget>(
      `SELECT m.id AS "replyId", m.reply_to AS "messageId", m.chat_id AS "chatId", c.user_id AS "userId",
              c.company_id AS "companyId", a.id AS "agentId", a.is_default AS "agentIsDefault",
              a.webhook, a.signing_secret AS "signingSecret", a.send_feedback AS "sendFeedback",
              m.is_voice_message AS "isVoiceMessage"
         FROM messages m JOIN chats c ON c.id = m.chat_id JOIN agents a ON a.id = c.agent_id
        WHERE m.id = $1 AND m.sender_type = 'agent'`,
      [replyId],
    );
    return rows[0] ?? null;
  }

  /**
   * A user's message, in one statement (atomic, and committed on return unless `tx` is given): locks
   * the owner's chat, checks it can take a message (not archived, no reply pending, agent active), stores
   * the message waiting for its reply and moves the chat up the list. A statement that waited for the
   * chat's lock still reads messages as they were when it began, so the pending check alone could let
   * two simultaneous sends through: the unique UQ_messages_pending index refuses the second ('pending').
   */
  async sendUserMessage(
    scope: OwnerScope,
    chatId: string,
    text: string,
    tx?: Tx,
    /** The chat list's preview when it is not the text (a message of files only). */
    preview: string = text,
  ): Promise<SendOutcome> {
    const values = [chatId, scope.userId, scope.companyId, text, preview.slice(0, PREVIEW_STORE_LENGTH)];
    const rows = await this.db.prepared<SendRow>('chats.send', SEND_SQL, values, tx);
    const row = rows[0];
    if (!row) return { refused: 'not_found' };
    if (row.refused_archived) return { refused: 'archived' };
    if (row.pending) return { refused: 'pending' };
    if (!row.agent_active) return { refused: 'inactive' };
    // Checked, and yet not stored: a simultaneous send stored its message first.
    if (!row.id) return { refused: 'pending' };
    const message = toMessageView(row);
    const chat = movedChat(row, true);
    // Inside a transaction the caller may add files and commits later: its job reads the reply back.
    if (tx || !row.agent_owned) return { message, createdAt: row.created_at, chat };
    return { message, createdAt: row.created_at, chat, firstReply: firstReplyOf(message, row) };
  }

  /**
   * What the reply job needs to call the agent (the message, its chat's owner, the chat's agent as its
   * owner has it: null when gone), or null when there is nothing (left) to answer. One query.
   */
  async findPendingReply(messageId: string): Promise<PendingReply | null> {
    const rows: Array<
      MessageRow &
        ReplyAgentRow & {
          user_id: string;
          company_id: string;
          agent_id: string;
          agent_found: string | null;
          has_files: boolean;
          reply_round: number;
          reply_requested_at: Date | null;
        }
    > = await this.db.prepared('chats.pending-reply', PENDING_REPLY_SQL, [messageId]);
    const row = rows[0];
    if (!row) return null;
    return {
      message: toMessageView(row),
      round: row.reply_round,
      askedAt: (row.reply_requested_at ?? row.created_at).toISOString(),
      chatId: row.chat_id,
      userId: row.user_id,
      companyId: row.company_id,
      agentId: row.agent_id,
      hasFiles: row.has_files,
      agent: row.agent_found ? toReplyAgent(row.agent_found, row) : null,
    };
  }

  /**
   * Stores an agent's reply to a user message still waiting for it, marks that message replied and
   * moves the chat up, in one statement: null when the message no longer waits (answered, failed,
   * deleted). A second run waits for the first one's lock on the message, then finds it replied; the
   * unique reply_to index makes a second reply a no-op whatever happens.
   */
  async storeReply(
    messageId: string,
    content: string,
    /** A streamed reply cut short: what came is stored, marked with why it ended early. */
    interrupted: ReplyInterruption | null = null,
    /** With 'error': the agent's message. */
    interruptedReason: string | null = null,
    /** The chat list's preview when it is not the text (a reply of files only). */
    preview: string = content,
    /** The round the answer is for: an answer to an earlier round (asked again since) is not stored. */
    round: number | null = null,
    /** The delivery log's row of the webhook call, written with the reply. */
    delivery: DeliveryRecord | null = null,
  ): Promise<StoredReply | null> {
    const values = [
      messageId,
      content,
      preview.slice(0, PREVIEW_STORE_LENGTH),
      interrupted,
      interruptedReason?.slice(0, INTERRUPTED_REASON_MAX) ?? null,
      round,
    ];
    const rows = delivery
      ? await this.db.prepared<ReplyRow>('chats.store-reply-logged', STORE_REPLY_LOGGED_SQL, [
          ...values,
          ...recordParams(delivery),
        ])
      : await this.db.prepared<ReplyRow>('chats.store-reply', STORE_REPLY_SQL, values);
    const row = rows[0];
    if (!row) return null;
    return {
      userId: row.user_id,
      companyId: row.company_id,
      message: toMessageView(row),
      chat: movedChat(row, false),
    };
  }

  /** The user message of a chat (checked by the caller) whose reply is pending, if any. */
  async pendingReplyOfChat(chatId: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT m.id FROM messages m WHERE m.chat_id = $1 AND m.reply_status = 'pending'`,
      [chatId],
    );
    return rows[0]?.id ?? null;
  }

  /** A pending reply stopped before any text came: nothing is stored, the chat takes messages again. */
  async markReplySkipped(messageId: string): Promise<FailedReply[]> {
    const rows = await this.db.query<FailedRow>(
      `UPDATE messages m SET reply_status = 'skipped' FROM chats c
         WHERE m.id = $1 AND m.reply_status = 'pending' AND c.id = m.chat_id
         RETURNING m.id, m.chat_id, c.user_id, c.company_id, c.agent_id`,
      [messageId],
    );
    return rows.map(toFailedReply);
  }

  /**
   * Marks one pending reply failed, with why (`failure`, which the Insights rollups count); empty when
   * it was not pending (answered or failed already), or when `round` is given and the reply pending is
   * of a later round (asked for again since).
   */
  async markReplyFailed(
    messageId: string,
    failure: FailureKind,
    round: number | null = null,
  ): Promise<FailedReply[]> {
    // A delivery awaiting its callback (or its next attempt) ends with the reply's failure.
    const rows = await this.db.query<FailedRow>(
      `WITH failed AS (
         UPDATE messages m SET reply_status = 'failed', reply_failure = $2 FROM chats c
         WHERE m.id = $1 AND m.reply_status = 'pending' AND c.id = m.chat_id
           AND ($3::int IS NULL OR m.reply_round = $3::int)
         RETURNING m.id, m.chat_id, m.reply_round, c.user_id, c.company_id, c.agent_id
       ), logged AS (
         UPDATE webhook_deliveries d SET outcome = $2 FROM failed f
         WHERE d.message_id = f.id AND d.round = f.reply_round AND d.outcome IN ('accepted', 'retrying')
       )
       SELECT id, chat_id, user_id, company_id, agent_id FROM failed`,
      [messageId, failure, round],
    );
    return rows.map(toFailedReply);
  }

  /**
   * User messages whose reply has been pending for longer than `olderThanMs` (counted from when it was
   * last asked for), oldest first, with the round of that reply.
   */
  async pendingReplyIds(
    olderThanMs: number,
    limit: number,
  ): Promise<
    Array<{
      id: string;
      round: number;
      previousReplyId: string | null;
      edited: boolean;
      replayOf: string | null;
    }>
  > {
    // A round asked again says what asked it: the versions kept by that statement (same now()).
    const rows: Array<{
      id: string;
      reply_round: number;
      previous_reply_id: string | null;
      edited: boolean;
      replay_of: string | null;
    }> = await this.db.query(
      `SELECT m.id, m.reply_round,
         (SELECT v.id FROM message_versions v WHERE v.message_id = m.id AND v.sender_type = 'agent'
            AND v.replaced_at = m.reply_requested_at) AS previous_reply_id,
         EXISTS (SELECT 1 FROM message_versions v WHERE v.message_id = m.id AND v.sender_type = 'user'
            AND v.replaced_at = m.reply_requested_at) AS edited,
         -- A round a replay asked for: the delivery of the round before, marked replayed.
         (SELECT d.id FROM webhook_deliveries d WHERE d.message_id = m.id AND d.round = m.reply_round - 1
            AND d.replayed_at IS NOT NULL) AS replay_of
       FROM messages m
       WHERE m.reply_status = 'pending' AND ${ASKED_AT} < now() - ($1::int * interval '1 millisecond')
         AND ${NOT_AWAITING_CALLBACK}
       ORDER BY ${ASKED_AT} LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      round: row.reply_round,
      previousReplyId: row.previous_reply_id,
      edited: row.edited,
      replayOf: row.replay_of,
    }));
  }

  /** Marks failed every reply pending for longer than `olderThanMs`. */
  async markStaleRepliesFailed(olderThanMs: number): Promise<FailedReply[]> {
    const rows = await this.db.query<FailedRow>(
      `WITH failed AS (
         UPDATE messages m SET reply_status = 'failed', reply_failure = 'timeout' FROM chats c
         WHERE m.reply_status = 'pending' AND ${ASKED_AT} < now() - ($1::int * interval '1 millisecond')
           AND c.id = m.chat_id AND ${NOT_AWAITING_CALLBACK}
         RETURNING m.id, m.chat_id, m.reply_round, c.user_id, c.company_id, c.agent_id
       ), logged AS (
         UPDATE webhook_deliveries d SET outcome = 'timeout' FROM failed f
         WHERE d.message_id = f.id AND d.round = f.reply_round AND d.outcome IN ('accepted', 'retrying')
       )
       SELECT id, chat_id, user_id, company_id, agent_id FROM failed`,
      [olderThanMs],
    );
    return rows.map(toFailedReply);
  }
}
