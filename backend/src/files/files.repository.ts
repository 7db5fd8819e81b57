import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';
import type { StoredFileEntity } from './stored-file.entity';

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
      'SELECT content_type AS "contentType", data FROM files WHERE id = $1',
      [id],
    );
    return rows[0] ?? null;
  }

  async remove(id: string, tx?: Tx): Promise<void> {
    await this.db.query('DELETE FROM files WHERE id = $1', [id], tx);
  }
}
