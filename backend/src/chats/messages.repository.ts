import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { MessageView } from '../realtime/client-events';
import { returnedRows } from './chats.repository';
import type { ReplyStatus, SenderType } from './message.entity';

interface MessageRow {
  id: string;
  seq: string;
  chat_id: string;
  sender_id: string;
  sender_type: SenderType;
  content: string;
  is_voice_message: boolean;
  created_at: Date;
}

/** The message view's columns. Qualified: an ORDER BY seq would otherwise sort by the text alias. */
const MESSAGE_VIEW_COLUMNS =
  'm.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type, m.content, m.is_voice_message, m.created_at';

function toMessageView(row: MessageRow): MessageView {
  return {
    id: row.id,
    chatId: row.chat_id,
    senderId: row.sender_id,
    senderType: row.sender_type,
    content: row.content,
    timestamp: row.created_at.toISOString(),
    isVoiceMessage: row.is_voice_message,
    seq: row.seq,
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

/** Where a reply goes: the chat of a user message and that chat's owner and agent. */
export interface ReplyTarget {
  chatId: string;
  userId: string;
  companyId: string;
  agentId: string;
}

export interface PendingReply extends ReplyTarget {
  message: MessageView;
}

/** A reply marked failed: whom to tell. */
export interface FailedReply {
  messageId: string;
  chatId: string;
  userId: string;
  companyId: string;
}

type FailedRow = { id: string; chat_id: string; user_id: string; company_id: string };
const toFailedReply = (row: FailedRow): FailedReply => ({
  messageId: row.id,
  chatId: row.chat_id,
  userId: row.user_id,
  companyId: row.company_id,
});

/**
 * The SQL of messages. Reads by chat take a chat id the caller has already checked against its owner;
 * the reply job's statements go by message id (a job has ids, not a request).
 */
@Injectable()
export class MessagesRepository {
  constructor(private readonly dataSource: DataSource) {}

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
      const rows: MessageRow[] = await this.dataSource.query(
        `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m WHERE m.chat_id = $1 AND m.seq > $2
         ORDER BY m.seq ASC LIMIT $3`,
        [chatId, page.after, limit + 1],
      );
      return { messages: rows.slice(0, limit).map(toMessageView), hasMore: rows.length > limit };
    }
    const rows: MessageRow[] = await this.dataSource.query(
      `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m
       WHERE m.chat_id = $1 AND ($2::bigint IS NULL OR m.seq < $2::bigint)
       ORDER BY m.seq DESC LIMIT $3`,
      [chatId, page.before ?? null, limit + 1],
    );
    return { messages: rows.slice(0, limit).reverse().map(toMessageView), hasMore: rows.length > limit };
  }

  async insert(input: NewMessage, tx: EntityManager = this.dataSource.manager): Promise<StoredMessage> {
    const rows: MessageRow[] = await tx.query(
      `INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_status)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${MESSAGE_VIEW_COLUMNS}`,
      [input.chatId, input.senderId, input.senderType, input.content, input.replyStatus ?? null],
    );
    return { message: toMessageView(rows[0]), createdAt: rows[0].created_at };
  }

  /** What the reply job needs to call the agent, or null when there is nothing (left) to answer. */
  async findPendingReply(messageId: string): Promise<PendingReply | null> {
    const rows: Array<MessageRow & { user_id: string; company_id: string; agent_id: string }> =
      await this.dataSource.query(
        `SELECT ${MESSAGE_VIEW_COLUMNS}, c.user_id, c.company_id, c.agent_id
         FROM messages m JOIN chats c ON c.id = m.chat_id
         WHERE m.id = $1 AND m.sender_type = 'user' AND m.reply_status = 'pending'`,
        [messageId],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      message: toMessageView(row),
      chatId: row.chat_id,
      userId: row.user_id,
      companyId: row.company_id,
      agentId: row.agent_id,
    };
  }

  /** Locks a user message that still waits for its reply, for the rest of `tx`; null if it does not. */
  async lockPendingReply(tx: EntityManager, messageId: string): Promise<ReplyTarget | null> {
    const rows: Array<{ chat_id: string; user_id: string; company_id: string; agent_id: string }> =
      await tx.query(
        `SELECT m.chat_id, c.user_id, c.company_id, c.agent_id FROM messages m JOIN chats c ON c.id = m.chat_id
         WHERE m.id = $1 AND m.reply_status = 'pending' FOR UPDATE OF m`,
        [messageId],
      );
    const row = rows[0];
    return row
      ? { chatId: row.chat_id, userId: row.user_id, companyId: row.company_id, agentId: row.agent_id }
      : null;
  }

  /**
   * Stores an agent's reply to a user message and marks that message replied. The unique reply_to index
   * makes a second reply to the same message a no-op: null then.
   */
  async insertReply(
    tx: EntityManager,
    target: ReplyTarget,
    replyTo: string,
    content: string,
  ): Promise<StoredMessage | null> {
    const inserted: MessageRow[] = await tx.query(
      `INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_to)
       VALUES ($1, $2, 'agent', $3, $4) ON CONFLICT DO NOTHING RETURNING ${MESSAGE_VIEW_COLUMNS}`,
      [target.chatId, target.agentId, content, replyTo],
    );
    await tx.query(`UPDATE messages SET reply_status = 'replied' WHERE id = $1`, [replyTo]);
    return inserted[0] ? { message: toMessageView(inserted[0]), createdAt: inserted[0].created_at } : null;
  }

  /** Marks one pending reply failed; empty when it was not pending (answered or failed already). */
  async markReplyFailed(messageId: string): Promise<FailedReply[]> {
    const rows = returnedRows<FailedRow>(
      await this.dataSource.query(
        `UPDATE messages m SET reply_status = 'failed' FROM chats c
         WHERE m.id = $1 AND m.reply_status = 'pending' AND c.id = m.chat_id
         RETURNING m.id, m.chat_id, c.user_id, c.company_id`,
        [messageId],
      ),
    );
    return rows.map(toFailedReply);
  }

  /** Ids of user messages whose reply has been pending for longer than `olderThanMs`, oldest first. */
  async pendingReplyIds(olderThanMs: number, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT m.id FROM messages m
       WHERE m.reply_status = 'pending' AND m.created_at < now() - ($1::int * interval '1 millisecond')
       ORDER BY m.created_at LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Marks failed every reply pending for longer than `olderThanMs`. */
  async markStaleRepliesFailed(olderThanMs: number): Promise<FailedReply[]> {
    const rows = returnedRows<FailedRow>(
      await this.dataSource.query(
        `UPDATE messages m SET reply_status = 'failed' FROM chats c
         WHERE m.reply_status = 'pending' AND m.created_at < now() - ($1::int * interval '1 millisecond')
           AND c.id = m.chat_id
         RETURNING m.id, m.chat_id, c.user_id, c.company_id`,
        [olderThanMs],
      ),
    );
    return rows.map(toFailedReply);
  }
}
