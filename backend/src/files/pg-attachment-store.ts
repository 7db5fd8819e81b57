import { Readable } from 'node:stream';
import type { AttachmentStore } from './attachment-store';
import type { AttachmentsRepository } from './files.repository';

/**
 * 256 KB a row: the most a write holds of an upload. Files stored before were written in 1 MB rows; a
 * read takes rows of any size.
 */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Attachments' bytes in PostgreSQL, in `file_chunks` rows. A write gathers the pieces of one row as they
 * arrive (split at the row's end with views, never joined) and sends them with a binary COPY; a read
 * fetches the next row, by a binary COPY, only when the reader wants more (backpressure through
 * Readable). No byte goes through hex text or a copy into node-pg's bind message: those copies were
 * most of what an upload or a download grew the process by. Each row takes a pool connection only for
 * its own statement, so a slow upload or download never holds one.
 */
export class PgAttachmentStore implements AttachmentStore {
  readonly kind = 'pg' as const;

  constructor(private readonly files: AttachmentsRepository) {}

  async write(fileId: string, body: AsyncIterable<Buffer>): Promise<number> {
    let row: Buffer[] = [];
    let rowBytes = 0;
    let idx = 0;
    let total = 0;
    for await (const piece of body) {
      total += piece.length;
      let rest = piece;
      while (rowBytes + rest.length >= CHUNK_BYTES) {
        const take = CHUNK_BYTES - rowBytes;
        row.push(rest.subarray(0, take));
        await this.files.writeChunk(fileId, idx++, row);
        rest = rest.subarray(take);
        row = [];
        rowBytes = 0;
      }
      if (rest.length) {
        row.push(rest);
        rowBytes += rest.length;
      }
    }
    if (rowBytes > 0) await this.files.writeChunk(fileId, idx, row);
    return total;
  }

  read(fileId: string): Promise<Readable> {
    const files = this.files;
    async function* rows(): AsyncGenerator<Buffer> {
      for (let idx = 0; ; idx++) {
        const pieces = await files.readChunk(fileId, idx);
        if (!pieces) return; // no row idx: the file has ended
        yield* pieces;
      }
    }
    return Promise.resolve(Readable.from(rows(), { objectMode: false }));
  }

  async remove(fileIds: readonly string[]): Promise<void> {
    if (fileIds.length) await this.files.removeChunks(fileIds);
  }
}
