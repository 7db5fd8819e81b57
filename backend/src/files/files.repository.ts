import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { Database, type Tx } from '../database/database';
import type { OwnerScope } from '../common/company-scope';
import type { AttachmentKind, FileStorage, StoredFileEntity } from './stored-file.entity';

/** Stored files' rows. The bytes are read only when asked for. */
@Injectable()
export class FilesRepository {
  constructor(private readonly db: Database) {}

  async insert(
    file: Pick<StoredFileEntity, 'ownerId' | 'purpose' | 'contentType' | 'size' | 'data'>,
    tx?: Tx,
  ): Promise<string> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO files (owner_id, purpose, content_type, size, data) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [file.ownerId, file.purpose, file.contentType, file.size, file.data],
      tx,
    );
    return rows[0].id;
  }

  async findWithData(id: string): Promise<Pick<StoredFileEntity, 'contentType' | 'data'> | null> {
    const rows: Array<Pick<StoredFileEntity, 'contentType' | 'data'>> = await this.db.query(
      'SELECT content_type AS "contentType", data FROM files WHERE id = $1 AND storage = \'inline\'',
      [id],
    );
    return rows[0] ?? null;
  }

  async remove(id: string, tx?: Tx): Promise<void> {
    await this.db.query('DELETE FROM files WHERE id = $1', [id], tx);
  }
}

/** An attachment's row as the service reads it. */
export interface AttachmentRow {
  id: string;
  messageId: string | null;
  name: string;
  mimeType: string;
  size: number;
  kind: AttachmentKind;
  width: number | null;
  height: number | null;
  storage: FileStorage;
}

const ATTACHMENT_COLUMNS = `f.id, f.message_id AS "messageId", f.name, f.content_type AS "mimeType", f.size,
  f.kind, f.width, f.height, f.storage`;

/** A new attachment's row, written before its bytes (file_chunks rows point at it). */
export interface NewAttachment {
  ownerId: string;
  companyId: string;
  /** Null: uploaded before the chat exists (its first message creates it and takes the file). */
  chatId: string | null;
  name: string;
  mimeType: string;
  kind: AttachmentKind;
  storage: FileStorage;
  /** Held of the company's stored-bytes quota until the bytes are stored (markStored). */
  reservedBytes: number;
}

/** Whose files a deletion takes: one chat's, every chat's of an agent, or a whole company's. */
export type FilesOf = { chatId: string } | { agentId: string } | { companyId: string };

/** Attachments' rows and chunks. Every read by a user goes through the chat's owner and company. */
@Injectable()
export class AttachmentsRepository {
  constructor(private readonly db: Database) {}

  async insert(tx: Tx, file: NewAttachment): Promise<string> {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO files (owner_id, company_id, chat_id, purpose, name, content_type, kind, storage, size,
         reserved_bytes)
       VALUES ($1, $2, $3, 'attachment', $4, $5, $6, $7, 0, $8) RETURNING id`,
      [
        file.ownerId,
        file.companyId,
        file.chatId,
        file.name,
        file.mimeType,
        file.kind,
        file.storage,
        file.reservedBytes,
      ],
      tx,
    );
    return rows[0].id;
  }

  /**
   * Once the bytes are stored: their size (and an image's dimensions); the reservation is let go. False
   * when the row is gone (deleted with its chat meanwhile).
   */
  async markStored(
    id: string,
    size: number,
    dimensions: { width: number; height: number } | null,
  ): Promise<boolean> {
    const updated = await this.db.execute(
      'UPDATE files SET size = $2, width = $3, height = $4, reserved_bytes = 0 WHERE id = $1',
      [id, size, dimensions?.width ?? null, dimensions?.height ?? null],
    );
    return updated > 0;
  }

  async find(id: string): Promise<AttachmentRow | null> {
    const rows: AttachmentRow[] = await this.db.query(
      `SELECT ${ATTACHMENT_COLUMNS} FROM files f WHERE f.id = $1 AND f.purpose = 'attachment'`,
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * The owner's uploads in this chat (null: uploaded in the company before any chat, for a first
   * message) that no message uses yet, locked until the caller's transaction ends (so two sends cannot
   * both take one).
   */
  async lockUnattached(
    tx: Tx,
    scope: OwnerScope,
    chatId: string | null,
    ids: readonly string[],
  ): Promise<AttachmentRow[]> {
    return this.db.query(
      `SELECT ${ATTACHMENT_COLUMNS} FROM files f
       WHERE f.id = ANY($1::uuid[]) AND f.purpose = 'attachment' AND f.owner_id = $2 AND f.company_id = $3
         AND f.chat_id IS NOT DISTINCT FROM $4::uuid AND f.message_id IS NULL AND f.size > 0
       FOR UPDATE`,
      [ids, scope.userId, scope.companyId, chatId],
      tx,
    );
  }

  /** Links the files to their message (and its chat), in the order given. */
  async attach(tx: Tx, messageId: string, chatId: string, ids: readonly string[]): Promise<void> {
    await this.db.execute(
      `UPDATE files f SET message_id = $1, chat_id = $3, position = o.position
       FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, position) WHERE f.id = o.id`,
      [messageId, ids, chatId],
      tx,
    );
  }

  /** Links unsent files of a chat to a message of that chat (an agent's reply), in the order given. */
  async attachInChat(messageId: string, chatId: string, ids: readonly string[]): Promise<void> {
    await this.db.execute(
      `UPDATE files f SET message_id = $1, position = o.position
       FROM unnest($3::uuid[]) WITH ORDINALITY AS o(id, position)
       WHERE f.id = o.id AND f.chat_id = $2 AND f.message_id IS NULL`,
      [messageId, chatId, ids],
    );
  }

  /** The attachments of these messages (of chats the caller has checked), in their order. */
  async ofMessages(messageIds: readonly string[]): Promise<AttachmentRow[]> {
    if (!messageIds.length) return [];
    return this.db.query(
      `SELECT ${ATTACHMENT_COLUMNS} FROM files f WHERE f.message_id = ANY($1::uuid[])
       ORDER BY f.message_id, f.position`,
      [messageIds],
    );
  }

  /**
   * What deleting a chat, every chat of an agent, or a company removes of its files: how many and their
   * bytes, and the ids of those whose bytes are outside PostgreSQL (they outlive the rows' cascade). The
   * rows are locked until `tx` ends, so an upload linked meanwhile waits for the delete.
   */
  async summaryOf(tx: Tx, where: FilesOf): Promise<{ files: number; bytes: number; externalIds: string[] }> {
    const [filter, id] =
      'chatId' in where
        ? ['chat_id = $1', where.chatId]
        : 'agentId' in where
          ? ['chat_id IN (SELECT id FROM chats WHERE agent_id = $1)', where.agentId]
          : ['company_id = $1', where.companyId];
    const rows: Array<{ id: string; size: number; storage: FileStorage }> = await this.db.query(
      `SELECT id, size, storage FROM files WHERE ${filter} AND purpose = 'attachment' FOR UPDATE`,
      [id],
      tx,
    );
    return {
      files: rows.length,
      bytes: rows.reduce((sum, row) => sum + Number(row.size), 0),
      externalIds: rows.filter((row) => row.storage === 's3').map((row) => row.id),
    };
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.db.execute('DELETE FROM files WHERE id = ANY($1::uuid[])', [ids]);
  }

  /** Deletes uploads no message took within `olderThanMs`; returns them (for their bytes elsewhere). */
  async removeUnattached(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ id: string; storage: FileStorage }>> {
    return this.db.query(
      `DELETE FROM files WHERE id IN (
         SELECT id FROM files WHERE purpose = 'attachment' AND message_id IS NULL
           AND created_at < now() - ($1::bigint * interval '1 millisecond')
         ORDER BY created_at LIMIT $2)
       RETURNING id, storage`,
      [olderThanMs, limit],
    );
  }

  /**
   * Stores one chunk row from its pieces as they are (a COPY in PostgreSQL's binary format, so the bytes
   * go to the socket without being joined into one Buffer or copied into a bind message first).
   */
  async writeChunk(fileId: string, idx: number, pieces: readonly Buffer[]): Promise<void> {
    const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const tuple = Buffer.alloc(34);
    tuple.writeInt16BE(3, 0); // fields
    tuple.writeInt32BE(16, 2);
    uuidBytes(fileId).copy(tuple, 6);
    tuple.writeInt32BE(4, 22);
    tuple.writeInt32BE(idx, 26);
    tuple.writeInt32BE(length, 30); // then the data's bytes
    const sql = 'COPY file_chunks (file_id, idx, data) FROM STDIN (FORMAT binary)';
    await this.db.withConnection(sql, (client) =>
      pipeline(Readable.from([COPY_HEADER, tuple, ...pieces, COPY_TRAILER]), client.query(copyFrom(sql))),
    );
  }

  /**
   * One chunk row's bytes, in the pieces the socket brought them (COPY TO in binary format: no hex text,
   * no joined copy); null when there is no such chunk. The connection is held for this one row only, so
   * a slow download never keeps one from the pool.
   */
  async readChunk(fileId: string, idx: number): Promise<Buffer[] | null> {
    if (!Number.isSafeInteger(idx) || idx < 0) throw new Error(`Bad chunk index ${idx}`);
    const sql = `COPY (SELECT data FROM file_chunks WHERE file_id = '${uuidBytes(fileId).toString('hex')}' AND idx = ${idx}) TO STDOUT (FORMAT binary)`;
    const pieces: Buffer[] = [];
    await this.db.withConnection(sql, async (client) => {
      for await (const piece of client.query(copyTo(sql))) pieces.push(piece as Buffer);
    });
    return copiedField(pieces);
  }

  /** The sizes of a file's chunk rows, in order. */
  async chunkSizes(fileId: string): Promise<number[]> {
    const rows: Array<{ size: number }> = await this.db.query(
      'SELECT octet_length(data) AS size FROM file_chunks WHERE file_id = $1 ORDER BY idx',
      [fileId],
    );
    return rows.map((row) => Number(row.size));
  }

  async removeChunks(fileIds: readonly string[]): Promise<void> {
    await this.db.execute('DELETE FROM file_chunks WHERE file_id = ANY($1::uuid[])', [fileIds]);
  }
}

/** COPY's binary format: signature, flags and header extension length; the trailer is a field count of -1. */
const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]);
/** The header, then a tuple of one field: its count (2 bytes) and length (4). */
const ONE_FIELD_PREFIX = COPY_HEADER.length + 6;

/** A uuid's 16 bytes; throws for anything else (it is also what keeps a COPY's text safe). */
function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`Not a file id: ${id}`);
  return Buffer.from(hex, 'hex');
}

/**
 * The one field of the one row a binary COPY TO sent, as views of `pieces` (nothing copied); null when
 * it sent no row.
 */
function copiedField(pieces: Buffer[]): Buffer[] | null {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (total === COPY_HEADER.length + COPY_TRAILER.length) return null;
  const prefix = Buffer.alloc(ONE_FIELD_PREFIX);
  let copied = 0;
  for (const piece of pieces) {
    if (copied === ONE_FIELD_PREFIX) break;
    copied += piece.copy(prefix, copied, 0, Math.min(piece.length, ONE_FIELD_PREFIX - copied));
  }
  const length = prefix.readInt32BE(ONE_FIELD_PREFIX - 4);
  if (copied < ONE_FIELD_PREFIX || total !== ONE_FIELD_PREFIX + length + COPY_TRAILER.length)
    throw new Error('Unexpected COPY output for a file chunk');
  const out: Buffer[] = [];
  let at = 0;
  for (const piece of pieces) {
    const from = Math.max(0, ONE_FIELD_PREFIX - at);
    const to = Math.min(piece.length, ONE_FIELD_PREFIX + length - at);
    if (to > from) out.push(piece.subarray(from, to));
    at += piece.length;
  }
  return out;
}
