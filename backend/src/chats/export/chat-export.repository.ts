import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../../common/company-scope';
import type { ExportedChat, ExportedFile, ExportedMessage } from './export-formats';
import { Database } from '../../database/database';

interface ChatRow {
  id: string;
  title: string;
  agent_name: string | null;
  created_at: Date;
}

interface MessageRow {
  id: string;
  seq: string;
  sender_type: 'user' | 'agent';
  content: string;
  is_voice_message: boolean;
  created_at: Date;
  version: number;
  earlier_versions: Array<{ version: number; content: string; created_at: string }> | null;
}

/** The export's reads: the owner's chat, then its messages a page at a time by seq. */
@Injectable()
export class ChatExportRepository {
  constructor(private readonly db: Database) {}

  async findOwnedChat(scope: OwnerScope, chatId: string): Promise<ExportedChat | null> {
    const rows: ChatRow[] = await this.db.query(
      `SELECT c.id, c.title, a.name AS agent_name, c.created_at FROM chats c
       LEFT JOIN agents a ON a.id = c.agent_id
       WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3`,
      [chatId, scope.userId, scope.companyId],
    );
    const row = rows[0];
    if (!row) return null;
    return { id: row.id, title: row.title, agentName: row.agent_name ?? 'Agent', createdAt: row.created_at };
  }

  /** Messages after `afterSeq`, oldest first, of a chat the caller has checked. */
  async page(
    chatId: string,
    afterSeq: string | null,
    limit: number,
  ): Promise<Array<ExportedMessage & { seq: string }>> {
    const rows: MessageRow[] = await this.db.query(
      // A message with versions (an edited message, a regenerated reply) brings the earlier ones along.
      `SELECT m.id, m.seq::text AS seq, m.sender_type, m.content, m.is_voice_message, m.created_at, m.version,
         CASE WHEN m.version > 1 THEN (
           SELECT json_agg(json_build_object('version', v.version, 'content', v.content,
                                             'created_at', v.created_at) ORDER BY v.version)
           FROM message_versions v
           WHERE v.message_id = CASE WHEN m.sender_type = 'user' THEN m.id ELSE m.reply_to END
             AND v.sender_type = m.sender_type AND v.chat_id = m.chat_id
         ) END AS earlier_versions
       FROM messages m WHERE m.chat_id = $1 AND ($2::bigint IS NULL OR m.seq > $2::bigint)
       ORDER BY m.seq ASC LIMIT $3`,
      [chatId, afterSeq, limit],
    );
    const files = await this.filesOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      id: row.id,
      seq: row.seq,
      senderType: row.sender_type,
      content: row.content,
      isVoiceMessage: row.is_voice_message,
      createdAt: row.created_at,
      version: row.version,
      earlierVersions: (row.earlier_versions ?? []).map((v) => ({
        version: v.version,
        content: v.content,
        createdAt: new Date(v.created_at),
      })),
      files: files.get(row.id) ?? [],
    }));
  }

  /** The files of these messages (metadata, never bytes), by message, in their order. */
  private async filesOf(messageIds: string[]): Promise<Map<string, ExportedFile[]>> {
    const byMessage = new Map<string, ExportedFile[]>();
    if (!messageIds.length) return byMessage;
    const rows: Array<ExportedFile & { messageId: string }> = await this.db.query(
      `SELECT message_id AS "messageId", id, name, content_type AS "mimeType", size, kind FROM files
       WHERE message_id = ANY($1::uuid[]) ORDER BY message_id, position`,
      [messageIds],
    );
    for (const { messageId, ...file } of rows) {
      const list = byMessage.get(messageId) ?? [];
      list.push(file);
      byMessage.set(messageId, list);
    }
    return byMessage;
  }

  /** Every file of the chat's messages (metadata only), oldest message first: a ZIP export's entries. */
  async filesOfChat(chatId: string): Promise<Array<Pick<ExportedFile, 'id' | 'name'>>> {
    return this.db.query(
      `SELECT f.id, f.name FROM files f JOIN messages m ON m.id = f.message_id
       WHERE f.chat_id = $1 AND m.chat_id = $1 ORDER BY m.seq, f.position`,
      [chatId],
    );
  }
}
