import { Readable } from 'node:stream';
import type { AttachmentStore } from './attachment-store';
import type { AttachmentsRepository } from './files.repository';

/** About 1 MB a row: large enough to keep the rows few, small enough that no file is held whole. */
export const CHUNK_BYTES = 1024 * 1024;
/** What one read brings: small enough for V8's young generation as hex text (under 128 KB). */
const READ_SLICE_BYTES = 48 * 1024;

/**
 * Attachments' bytes in PostgreSQL, in `file_chunks` rows of about 1 MB: a write holds one chunk at a
 * time, a read fetches the next chunk only when the reader wants more (backpressure through Readable).
 */
export class PgAttachmentStore implements AttachmentStore {
  readonly kind = 'pg' as const;

  constructor(private readonly files: AttachmentsRepository) {}

  async write(fileId: string, body: AsyncIterable<Buffer>): Promise<number> {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let idx = 0;
    let total = 0;
    for await (const piece of body) {
      pending.push(piece);
      pendingBytes += piece.length;
      total += piece.length;
      while (pendingBytes >= CHUNK_BYTES) {
        const joined = Buffer.concat(pending);
        await this.files.insertChunk(fileId, idx++, joined.subarray(0, CHUNK_BYTES));
        const rest = joined.subarray(CHUNK_BYTES);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    if (pendingBytes > 0) await this.files.insertChunk(fileId, idx, Buffer.concat(pending));
    return total;
  }

  read(fileId: string): Promise<Readable> {
    const files = this.files;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let idx = 0; ; idx++) {
        for (let offset = 0; ; offset += READ_SLICE_BYTES) {
          const slice = await files.chunkSlice(fileId, idx, offset, READ_SLICE_BYTES);
          if (!slice) return; // no chunk idx: the file has ended
          if (slice.length) yield slice;
          if (slice.length < READ_SLICE_BYTES) break;
        }
      }
    }
    return Promise.resolve(Readable.from(chunks(), { objectMode: false }));
  }

  async remove(fileIds: readonly string[]): Promise<void> {
    if (fileIds.length) await this.files.removeChunks(fileIds);
  }
}
