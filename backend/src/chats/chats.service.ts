import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AgentsService, DEFAULT_AGENT_ID } from '../agents/agents.service';
import { ConflictError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { isUuid } from '../files/files.service';
import { JobQueue } from '../queue/job-queue';
import type { ChatView, MessageView } from '../realtime/client-events';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { AGENT_REPLY_ATTEMPTS } from './jobs/agent-reply.constants';

export const CHAT_NOT_FOUND = 'Chat not found';
const PREVIEW_STORE_LENGTH = 200;

interface ChatRow {
  id: string;
  company_id: string;
  agent_id: string;
  agent_is_default: boolean;
  title: string;
  is_archived: boolean;
  last_message: string | null;
  last_message_at: Date | null;
  pending_reply: boolean;
  created_at: Date;
  updated_at: Date;
}

interface MessageRow {
  id: string;
  seq: string;
  chat_id: string;
  sender_id: string;
  sender_type: 'user' | 'agent';
  content: string;
  is_voice_message: boolean;
  created_at: Date;
}

const CHAT_COLUMNS = `c.id, c.company_id, c.agent_id, a.is_default AS agent_is_default, c.title, c.is_archived,
  c.last_message, c.last_message_at, c.created_at, c.updated_at,
  EXISTS (SELECT 1 FROM messages p WHERE p.chat_id = c.id AND p.reply_status = 'pending') AS pending_reply`;
// Qualified: an ORDER BY seq would otherwise sort by the text alias, not the number.
const MESSAGE_COLUMNS =
  'm.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type, m.content, m.is_voice_message, m.created_at';

/** UPDATE ... RETURNING through TypeORM's query() comes back as [rows, count]. */
function returnedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);
}

export function toChatView(row: ChatRow): ChatView {
  return {
    id: row.id,
    companyId: row.company_id,
    agentId: row.agent_is_default ? DEFAULT_AGENT_ID : row.agent_id,
    title: row.title,
    isArchived: row.is_archived,
    lastMessage: row.last_message,
    lastMessageAt: row.last_message_at ? row.last_message_at.toISOString() : null,
    pendingReply: row.pending_reply,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toMessageView(row: MessageRow): MessageView {
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

/** Chats and messages of one user in one company; nothing here reads across either boundary. */
@Injectable()
export class ChatsService {
  private readonly logger = new Logger('Chats');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly agents: AgentsService,
    private readonly queue: JobQueue,
    private readonly realtime: RealtimePublisher,
  ) {}

  async list(userId: string, companyId: string, archived: boolean): Promise<ChatView[]> {
    const rows: ChatRow[] = await this.dataSource.query(
      `SELECT ${CHAT_COLUMNS} FROM chats c JOIN agents a ON a.id = c.agent_id
       WHERE c.user_id = $1 AND c.company_id = $2 AND c.is_archived = $3
       ORDER BY c.updated_at DESC, c.id LIMIT 1000`,
      [userId, companyId, archived],
    );
    return rows.map(toChatView);
  }

  async get(userId: string, companyId: string, chatId: string, manager?: EntityManager): Promise<ChatView> {
    if (!isUuid(chatId)) throw new NotFoundError(CHAT_NOT_FOUND);
    const rows: ChatRow[] = await (manager ?? this.dataSource).query(
      `SELECT ${CHAT_COLUMNS} FROM chats c JOIN agents a ON a.id = c.agent_id
       WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3`,
      [chatId, userId, companyId],
    );
    if (!rows[0]) throw new NotFoundError(CHAT_NOT_FOUND);
    return toChatView(rows[0]);
  }

  async create(userId: string, companyId: string, agentId: string, title?: string): Promise<ChatView> {
    const agent = await this.agents.resolve(userId, companyId, agentId);
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO chats (user_id, company_id, agent_id, title) VALUES ($1, $2, $3, $4) RETURNING id`,
      [userId, companyId, agent.id, (title ?? `Chat with ${agent.name}`).slice(0, 200)],
    );
    const chat = await this.get(userId, companyId, rows[0].id);
    this.realtime.toUser(userId, 'chat.created', { companyId, chat });
    return chat;
  }

  async update(
    userId: string,
    companyId: string,
    chatId: string,
    changes: { title?: string; isArchived?: boolean },
  ): Promise<ChatView> {
    await this.get(userId, companyId, chatId);
    if (changes.title !== undefined || changes.isArchived !== undefined) {
      await this.dataSource.query(
        `UPDATE chats SET title = COALESCE($4, title), is_archived = COALESCE($5, is_archived)
         WHERE id = $1 AND user_id = $2 AND company_id = $3`,
        [chatId, userId, companyId, changes.title ?? null, changes.isArchived ?? null],
      );
    }
    const chat = await this.get(userId, companyId, chatId);
    this.realtime.toUser(userId, 'chat.updated', { companyId, chat });
    return chat;
  }

  /** Messages first, then the chat, in one transaction (the spec's order). */
  async remove(userId: string, companyId: string, chatId: string): Promise<void> {
    await this.get(userId, companyId, chatId);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `DELETE FROM messages m USING chats c
         WHERE m.chat_id = c.id AND c.id = $1 AND c.user_id = $2 AND c.company_id = $3`,
        [chatId, userId, companyId],
      );
      await manager.query(`DELETE FROM chats WHERE id = $1 AND user_id = $2 AND company_id = $3`, [
        chatId,
        userId,
        companyId,
      ]);
    });
    this.realtime.toUser(userId, 'chat.deleted', { companyId, chatId });
  }

  /**
   * A page of messages, oldest first. `before` pages back through history; `after` returns what came
   * since a message a client already has (resync after a reconnect).
   */
  async messages(
    userId: string,
    companyId: string,
    chatId: string,
    page: { before?: string; after?: string; limit?: number },
  ): Promise<{ messages: MessageView[]; hasMore: boolean; pendingReply: boolean }> {
    const chat = await this.get(userId, companyId, chatId);
    const limit = page.limit ?? 50;
    let rows: MessageRow[];
    let hasMore = false;
    if (page.after) {
      rows = await this.dataSource.query(
        `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.chat_id = $1 AND m.seq > $2 ORDER BY m.seq ASC LIMIT $3`,
        [chatId, page.after, limit + 1],
      );
      hasMore = rows.length > limit;
      rows = rows.slice(0, limit);
    } else {
      rows = await this.dataSource.query(
        `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.chat_id = $1 AND ($2::bigint IS NULL OR m.seq < $2::bigint)
         ORDER BY m.seq DESC LIMIT $3`,
        [chatId, page.before ?? null, limit + 1],
      );
      hasMore = rows.length > limit;
      rows = rows.slice(0, limit).reverse();
    }
    return { messages: rows.map(toMessageView), hasMore, pendingReply: chat.pendingReply };
  }

  /** The first message with no active chat: creates 'Chat with {agent}' and sends into it. */
  async sendFirst(
    userId: string,
    companyId: string,
    agentId: string,
    content: string,
  ): Promise<{ chat: ChatView; message: MessageView }> {
    const created = await this.create(userId, companyId, agentId);
    const message = await this.send(userId, companyId, created.id, content);
    return { chat: await this.get(userId, companyId, created.id), message };
  }

  /**
   * Stores the user's message and answers at once; the agent's reply follows as a job. The message is
   * committed before anything else happens, so nothing the user sent is ever lost.
   */
  async send(userId: string, companyId: string, chatId: string, content: string): Promise<MessageView> {
    const text = content.trim();
    if (!text) throw new ValidationFailedError('Please enter a message');
    if (!isUuid(chatId)) throw new NotFoundError(CHAT_NOT_FOUND);
    // One connection, four statements: lock the chat (checking its agent and any pending reply), store
    // the message, move the chat up the list.
    const { message, chat } = await this.dataSource.transaction(async (manager) => {
      const locked: Array<{ is_archived: boolean; agent_active: boolean; pending: boolean }> =
        await manager.query(
          `SELECT c.is_archived, a.is_active AS agent_active,
                EXISTS (SELECT 1 FROM messages p WHERE p.chat_id = c.id AND p.reply_status = 'pending') AS pending
         FROM chats c JOIN agents a ON a.id = c.agent_id
         WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3
         FOR UPDATE OF c`,
          [chatId, userId, companyId],
        );
      const row = locked[0];
      if (!row) throw new NotFoundError(CHAT_NOT_FOUND);
      if (row.is_archived)
        throw new ValidationFailedError('This chat is archived. Restore it to send messages.');
      if (row.pending)
        throw new ConflictError('Please wait for the agent to reply before sending another message.');
      if (!row.agent_active) throw new ValidationFailedError('This agent is not active');
      const rows: MessageRow[] = await manager.query(
        `INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_status)
         VALUES ($1, $2, 'user', $3, 'pending') RETURNING ${MESSAGE_COLUMNS}`,
        [chatId, userId, text],
      );
      const updated = await this.touchChat(manager, chatId, text, rows[0].created_at, true);
      return { message: toMessageView(rows[0]), chat: updated };
    });
    this.realtime.toUser(userId, 'message.created', { companyId, chatId, message, chat });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId, typing: true });
    try {
      await this.queue.enqueue(
        'agent.reply',
        { messageId: message.id },
        { jobId: message.id, attempts: AGENT_REPLY_ATTEMPTS },
      );
    } catch (error) {
      // The message is safe; the reply cannot be had. Say so rather than leave the indicator spinning.
      this.logger.error(`Could not queue the reply to ${message.id}: ${String(error)}`);
      await this.failReply(message.id, 'The agent could not be reached. Please try again.');
    }
    return message;
  }

  /** Records the newest message on the chat and returns the chat as the list shows it. */
  private async touchChat(
    manager: EntityManager,
    chatId: string,
    text: string,
    at: Date,
    pendingReply: boolean,
  ): Promise<ChatView> {
    const rows = returnedRows<ChatRow>(
      await manager.query(
        `UPDATE chats c SET last_message = $2, last_message_at = $3, updated_at = $3
         FROM agents a WHERE c.id = $1 AND a.id = c.agent_id
         RETURNING c.id, c.company_id, c.agent_id, a.is_default AS agent_is_default, c.title, c.is_archived,
                   c.last_message, c.last_message_at, c.created_at, c.updated_at, $4::boolean AS pending_reply`,
        [chatId, text.slice(0, PREVIEW_STORE_LENGTH), at, pendingReply],
      ),
    );
    return toChatView(rows[0]);
  }

  /** What the reply job needs to call the agent, or null when there is nothing (left) to answer. */
  async pendingReplyContext(messageId: string): Promise<{
    message: MessageView;
    userId: string;
    companyId: string;
    agentId: string;
  } | null> {
    const rows: Array<MessageRow & { user_id: string; company_id: string; agent_id: string }> =
      await this.dataSource.query(
        `SELECT m.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type, m.content, m.is_voice_message,
              m.created_at, c.user_id, c.company_id, c.agent_id
       FROM messages m JOIN chats c ON c.id = m.chat_id
       WHERE m.id = $1 AND m.sender_type = 'user' AND m.reply_status = 'pending'`,
        [messageId],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      message: toMessageView(row),
      userId: row.user_id,
      companyId: row.company_id,
      agentId: row.agent_id,
    };
  }

  /** Stores the agent's answer to a user message: at most once, however often the job runs. */
  async storeReply(messageId: string, content: string): Promise<void> {
    const result = await this.dataSource.transaction(async (manager) => {
      const rows: Array<{ chat_id: string; user_id: string; company_id: string; agent_id: string }> =
        await manager.query(
          `SELECT m.chat_id, c.user_id, c.company_id, c.agent_id FROM messages m JOIN chats c ON c.id = m.chat_id
         WHERE m.id = $1 AND m.reply_status = 'pending' FOR UPDATE OF m`,
          [messageId],
        );
      const row = rows[0];
      if (!row) return null;
      const inserted: MessageRow[] = await manager.query(
        `INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_to)
         VALUES ($1, $2, 'agent', $3, $4) ON CONFLICT DO NOTHING RETURNING ${MESSAGE_COLUMNS}`,
        [row.chat_id, row.agent_id, content, messageId],
      );
      await manager.query(`UPDATE messages SET reply_status = 'replied' WHERE id = $1`, [messageId]);
      if (!inserted[0]) return null;
      const chat = await this.touchChat(manager, row.chat_id, content, inserted[0].created_at, false);
      return { row, message: toMessageView(inserted[0]), chat };
    });
    if (!result) return;
    const { row, message, chat } = result;
    this.realtime.toUser(row.user_id, 'message.created', {
      companyId: row.company_id,
      chatId: row.chat_id,
      message,
      chat,
    });
    this.realtime.toUser(row.user_id, 'agent.typing', {
      companyId: row.company_id,
      chatId: row.chat_id,
      typing: false,
    });
  }

  /** Marks a reply as failed (once) and tells the user's tabs; the user's message stays. */
  async failReply(messageId: string, reason: string): Promise<void> {
    const rows = returnedRows<{ chat_id: string; user_id: string; company_id: string }>(
      await this.dataSource.query(
        `UPDATE messages m SET reply_status = 'failed' FROM chats c
         WHERE m.id = $1 AND m.reply_status = 'pending' AND c.id = m.chat_id
         RETURNING m.chat_id, c.user_id, c.company_id`,
        [messageId],
      ),
    );
    for (const row of rows) this.emitFailure(row, messageId, reason);
  }

  /** Replies pending longer than any attempt could take are failed, so no indicator spins forever. */
  async failStaleReplies(): Promise<number> {
    const budgetMs = AGENT_REPLY_ATTEMPTS * (this.config.webhookTimeoutMs + 10_000) + 60_000;
    const rows = returnedRows<{ id: string; chat_id: string; user_id: string; company_id: string }>(
      await this.dataSource.query(
        `UPDATE messages m SET reply_status = 'failed' FROM chats c
         WHERE m.reply_status = 'pending' AND m.created_at < now() - ($1::int * interval '1 millisecond')
           AND c.id = m.chat_id
         RETURNING m.id, m.chat_id, c.user_id, c.company_id`,
        [budgetMs],
      ),
    );
    for (const row of rows) this.emitFailure(row, row.id, 'The agent did not answer in time.');
    return rows.length;
  }

  private emitFailure(
    row: { chat_id: string; user_id: string; company_id: string },
    messageId: string,
    reason: string,
  ) {
    this.realtime.toUser(row.user_id, 'agent.reply_failed', {
      companyId: row.company_id,
      chatId: row.chat_id,
      messageId,
      reason,
    });
    this.realtime.toUser(row.user_id, 'agent.typing', {
      companyId: row.company_id,
      chatId: row.chat_id,
      typing: false,
    });
  }
}
