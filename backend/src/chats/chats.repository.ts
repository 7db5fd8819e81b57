import { Injectable } from '@nestjs/common';
import { DEFAULT_AGENT_ID } from '../agents/agents.service';
import type { OwnerScope } from '../common/company-scope';
import { type Keyset, keysetAt } from '../common/keyset-cursor';
import type { ChatView } from '../realtime/client-events';
import { Database, type Tx } from '../database/database';

/** Longest last-message preview kept on the chat row (the column is varchar(200)). */
export const PREVIEW_STORE_LENGTH = 200;

export interface ChatRow {
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

/**
 * The chat view's columns (from `chats c JOIN agents a`), but for pending_reply, which a SELECT works out
 * (PENDING_REPLY) and an UPDATE ... RETURNING is told (it knows what it just did).
 */
const CHAT_FIELDS = `c.id, c.company_id, c.agent_id, a.is_default AS agent_is_default, c.title, c.is_archived,
  c.last_message, c.last_message_at, c.created_at, c.updated_at`;
export const PENDING_REPLY = `EXISTS (SELECT 1 FROM messages p WHERE p.chat_id = c.id AND p.reply_status = 'pending')`;
const CHAT_VIEW_COLUMNS = `${CHAT_FIELDS}, ${PENDING_REPLY} AS pending_reply`;

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

/** The SQL of chats: every statement scoped by the owner (user and company) it was given. */
@Injectable()
export class ChatsRepository {
  constructor(private readonly db: Database) {}

  /**
   * One page of a list, newest first: (updated_at, id) descending, after the keyset `after` (the last
   * chat of the page before, its updated_at to the microsecond), an index range scan of
   * IDX_chats_owner_page however long the list. Each row also brings its own keyset position.
   */
  async page(
    scope: OwnerScope,
    query: { archived: boolean; limit: number; after?: Keyset },
  ): Promise<Array<{ chat: ChatView; keyset: Keyset }>> {
    const params: unknown[] = [scope.userId, scope.companyId, query.archived, query.limit];
    let after = '';
    if (query.after) {
      params.push(query.after.at, query.after.id);
      after = 'AND (c.updated_at, c.id) < ($5::timestamptz, $6::uuid)';
    }
    const rows: Array<ChatRow & { keyset_at: string }> = await this.db.query(
      `SELECT ${CHAT_VIEW_COLUMNS}, ${keysetAt('c.updated_at')} AS keyset_at
       FROM chats c JOIN agents a ON a.id = c.agent_id
       WHERE c.user_id = $1 AND c.company_id = $2 AND c.is_archived = $3 ${after}
       ORDER BY c.updated_at DESC, c.id DESC LIMIT $4`,
      params,
    );
    return rows.map((row) => ({ chat: toChatView(row), keyset: { at: row.keyset_at, id: row.id } }));
  }

  async find(scope: OwnerScope, chatId: string): Promise<ChatView | null> {
    const rows: ChatRow[] = await this.db.query(
      `SELECT ${CHAT_VIEW_COLUMNS} FROM chats c JOIN agents a ON a.id = c.agent_id
       WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3`,
      [chatId, scope.userId, scope.companyId],
    );
    return rows[0] ? toChatView(rows[0]) : null;
  }

  /**
   * A fingerprint of everything the chat screen shows from this user's data in this company: their
   * agents and chats, each whole row (so a rename or an archive, which keep updated_at, change it too)
   * with whether a reply is pending, summed as hashes (the order rows come in does not matter) beside
   * the counts (a hard delete changes them). Equal fingerprints: nothing the screen holds has changed.
   * Only the digest leaves the server (the agent rows hold webhook secrets). `pending`: a reply is being
   * waited for, whose streamed text (kept outside the database) no fingerprint can follow.
   */
  async syncVersion(scope: OwnerScope): Promise<{ version: string; pending: boolean }> {
    const rows: Array<{ version: string; pending: boolean }> = await this.db.query(
      `WITH agent_rows AS (
         SELECT count(*) AS n, COALESCE(sum(hashtextextended(a::text, 0)), 0) AS h
         FROM agents a WHERE a.user_id = $1 AND a.company_id = $2
       ), chat_rows AS (
         SELECT count(*) AS n, COALESCE(sum(hashtextextended(c::text || (p.id IS NOT NULL)::text, 0)), 0) AS h,
           COALESCE(bool_or(p.id IS NOT NULL), false) AS pending
         -- At most one pending reply per chat (UQ_messages_pending): the join adds no row.
         FROM chats c LEFT JOIN messages p ON p.chat_id = c.id AND p.reply_status = 'pending'
         WHERE c.user_id = $1 AND c.company_id = $2
       )
       SELECT md5(concat_ws(':', g.n, g.h, r.n, r.h)) AS version, r.pending
       FROM agent_rows g CROSS JOIN chat_rows r`,
      [scope.userId, scope.companyId],
    );
    return rows[0];
  }

  /** A new chat's id; `agentId` is the agent's row id (never 'default-agent'). */
  async insert(scope: OwnerScope, agentId: string, title: string, tx?: Tx): Promise<string> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO chats (user_id, company_id, agent_id, title) VALUES ($1, $2, $3, $4) RETURNING id`,
      [scope.userId, scope.companyId, agentId, title.slice(0, 200)],
      tx,
    );
    return rows[0].id;
  }

  /**
   * New Chat with a chat of this user and agent that never got a message (not archived): that chat,
   * moved to the top of the list, instead of another empty one (empty 'Chat with ...' rows
   * piled up, one per click). Null when there is none. Inside `tx`, after `lockNewChat`, so that two
   * clicks at once cannot both miss it and insert twice; a send into the chat meanwhile (it sets
   * last_message_at under the row lock) makes it no longer empty.
   */
  async reuseEmpty(tx: Tx, scope: OwnerScope, agentId: string): Promise<ChatView | null> {
    const rows = await this.db.query<ChatRow>(
      `UPDATE chats c SET updated_at = now() FROM agents a
         WHERE a.id = c.agent_id AND c.id = (
           SELECT e.id FROM chats e
           WHERE e.user_id = $1 AND e.company_id = $2 AND e.agent_id = $3 AND NOT e.is_archived
             AND e.last_message_at IS NULL AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.chat_id = e.id)
           ORDER BY e.updated_at DESC, e.id LIMIT 1)
         AND c.last_message_at IS NULL AND NOT c.is_archived
         RETURNING ${CHAT_FIELDS}, false AS pending_reply`,
      [scope.userId, scope.companyId, agentId],
      tx,
    );
    return rows[0] ? toChatView(rows[0]) : null;
  }

  /** Serialises New Chat per user, company and agent until `tx` ends. */
  async lockNewChat(tx: Tx, scope: OwnerScope, agentId: string): Promise<void> {
    await this.db.query(
      `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
      [`new-chat:${scope.userId}:${scope.companyId}:${agentId}`],
      tx,
    );
  }

  async update(
    scope: OwnerScope,
    chatId: string,
    changes: { title?: string; isArchived?: boolean },
  ): Promise<void> {
    await this.db.query(
      `UPDATE chats SET title = COALESCE($4, title), is_archived = COALESCE($5, is_archived)
       WHERE id = $1 AND user_id = $2 AND company_id = $3`,
      [chatId, scope.userId, scope.companyId, changes.title ?? null, changes.isArchived ?? null],
    );
  }

  /** Messages first, then the chat, in one transaction (the spec's order). */
  /** Locks the owner's chat until `tx` ends (to delete it); false when the owner has no such chat. */
  async lockOwned(tx: Tx, scope: OwnerScope, chatId: string): Promise<boolean> {
    const locked: unknown[] = await this.db.query(
      'SELECT 1 FROM chats WHERE id = $1 AND user_id = $2 AND company_id = $3 FOR UPDATE',
      [chatId, scope.userId, scope.companyId],
      tx,
    );
    return locked.length > 0;
  }

  /** Deletes a chat locked by lockOwned with its messages (their files' rows cascade). */
  async removeWithMessages(tx: Tx, chatId: string): Promise<{ messages: number }> {
    const messages = await this.db.execute('DELETE FROM messages WHERE chat_id = $1', [chatId], tx);
    await this.db.execute('DELETE FROM chats WHERE id = $1', [chatId], tx);
    return { messages };
  }

  /**
   * Locks the chat row for the rest of `tx` (voice turns of a chat are stored one at a time, in order)
   * and reads what storing one needs: the agent's row id (the sender of agent turns) and the chat's state.
   */
  async lockForVoice(
    tx: Tx,
    scope: OwnerScope,
    chatId: string,
  ): Promise<{ agentId: string; isArchived: boolean; pendingReply: boolean } | null> {
    const rows: Array<{ agent_id: string; is_archived: boolean; pending: boolean }> = await this.db.query(
      `SELECT c.agent_id, c.is_archived, ${PENDING_REPLY} AS pending FROM chats c
       WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3
       FOR UPDATE OF c`,
      [chatId, scope.userId, scope.companyId],
      tx,
    );
    const row = rows[0];
    return row ? { agentId: row.agent_id, isArchived: row.is_archived, pendingReply: row.pending } : null;
  }

  /**
   * Records the newest message on the chat (moving it up the list) and returns the chat as the list
   * shows it. Called inside the transaction that stored the message, whose owner it already checked.
   */
  async touch(tx: Tx, chatId: string, text: string, at: Date, pendingReply: boolean): Promise<ChatView> {
    const rows = await this.db.query<ChatRow>(
      `UPDATE chats c SET last_message = $2, last_message_at = $3, updated_at = $3
         FROM agents a WHERE c.id = $1 AND a.id = c.agent_id
         RETURNING ${CHAT_FIELDS}, $4::boolean AS pending_reply`,
      [chatId, text.slice(0, PREVIEW_STORE_LENGTH), at, pendingReply],
      tx,
    );
    return toChatView(rows[0]);
  }
}
