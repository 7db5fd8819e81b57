import type { Readable } from 'node:stream';

/**
 * Where attachments' bytes live: PostgreSQL (the default) or an S3-compatible bucket (S3_URL). The file's
 * row (name, type, size, owner) is always in PostgreSQL; a store holds only the bytes, by file id, and
 * never reads a whole file into memory.
 */
export interface AttachmentStore {
  readonly kind: 'pg' | 's3';
  /** Stores a file's bytes as they come from `body`; resolves to how many bytes were stored. */
  write(fileId: string, body: AsyncIterable<Buffer>): Promise<number>;
  /** The file's bytes as a stream; it errors when the file is missing. */
  read(fileId: string): Promise<Readable>;
  /** Deletes the bytes of these files (absent ones are ignored). */
  remove(fileIds: readonly string[]): Promise<void>;
  /**
   * A bucket only: aborts incomplete multipart uploads left behind by a cut upload whose abort never got
   * through (S3 away, the process stopped); null when the server cannot list them.
   */
  abortAbandonedUploads?(): Promise<{ aborted: number; gone: number } | null>;
}

export const ATTACHMENT_STORE = Symbol('ATTACHMENT_STORE');
