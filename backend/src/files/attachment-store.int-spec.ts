import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { startS3rver } from '../../test/s3rver.test-util';
import { useServiceContext } from '../../test/service-context';
import { AttachmentsRepository } from './files.repository';
import { CHUNK_BYTES, PgAttachmentStore } from './pg-attachment-store';
import { parseS3Url, S3AttachmentStore } from './s3-attachment-store';

async function readAll(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

/** The bytes in uneven pieces, as a network would hand them over. */
async function* inPieces(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0, size = 1; at < bytes.length; size = (size * 7) % 300_000 || 1) {
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

describe('attachment stores', () => {
  const ctx = useServiceContext();

  async function newFileRow(): Promise<string> {
    const scope = await ctx.newMember();
    const chat = await ctx.newChat(scope);
    return ctx.get(AttachmentsRepository).insert(ctx.get(DataSource).manager, {
      ownerId: scope.userId,
      companyId: scope.companyId,
      chatId: chat.id,
      name: 'data.bin',
      mimeType: 'application/pdf',
      kind: 'file',
      storage: 'pg',
      reservedBytes: 0,
    });
  }

  it('PostgreSQL keeps a file in 256 KB rows and gives the same bytes back, streamed', async () => {
    const rows = ctx.get(AttachmentsRepository);
    const store = new PgAttachmentStore(rows);
    const bytes = randomBytes(4 * CHUNK_BYTES + 12_345);
    const id = await newFileRow();
    expect(await store.write(id, inPieces(bytes))).toBe(bytes.length);
    expect(await rows.chunkSizes(id)).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, 12_345]);
    expect((await readAll(await store.read(id))).equals(bytes)).toBe(true);
    expect(await rows.readChunk(id, 5)).toBeNull();

    await store.remove([id]);
    expect(await rows.chunkSizes(id)).toEqual([]);
    expect(await readAll(await store.read(id))).toHaveLength(0);
  });

  it('PostgreSQL reads files written before in 1 MB rows, and an empty row', async () => {
    const rows = ctx.get(AttachmentsRepository);
    const bytes = randomBytes(1024 * 1024 + 3);
    const id = await newFileRow();
    await ctx
      .get(DataSource)
      .query('INSERT INTO file_chunks (file_id, idx, data) VALUES ($1, 0, $2), ($1, 1, $3), ($1, 2, $4)', [
        id,
        bytes.subarray(0, 1024 * 1024),
        Buffer.alloc(0),
        bytes.subarray(1024 * 1024),
      ]);
    const read = await readAll(await new PgAttachmentStore(rows).read(id));
    expect(read.equals(bytes)).toBe(true);
  });

  it('S3 (s3rver) stores a multi-part file and a small one, gives the same bytes back and deletes them', async () => {
    const s3 = await startS3rver();
    const store = await S3AttachmentStore.open(parseS3Url(s3.url));
    try {
      // Over S3's 5 MB part size: a multipart upload.
      const bytes = randomBytes(6 * 1024 * 1024 + 777);
      const id = await newFileRow();
      expect(await store.write(id, inPieces(bytes))).toBe(bytes.length);
      expect((await readAll(await store.read(id))).equals(bytes)).toBe(true);
      // Under it: one PutObject, streamed too.
      const small = randomBytes(300_001);
      const smallId = await newFileRow();
      expect(await store.write(smallId, inPieces(small))).toBe(small.length);
      expect((await readAll(await store.read(smallId))).equals(small)).toBe(true);
      await store.remove([id, smallId]);
      await expect(store.read(id)).rejects.toThrow();
      await expect(store.read(smallId)).rejects.toThrow();
    } finally {
      store.destroy();
      await s3.close();
    }
  });

  it('reads S3_URL into an endpoint, a bucket and keys, and says what is wrong with a bad one', () => {
    expect(
      parseS3Url('s3://AK:S%2Fecret@minio.local:9000/files?region=eu-west-1&forcePathStyle=true'),
    ).toEqual({
      endpoint: 'https://minio.local:9000',
      bucket: 'files',
      region: 'eu-west-1',
      accessKeyId: 'AK',
      secretAccessKey: 'S/ecret',
      forcePathStyle: true,
      prefix: 'attachments/',
    });
    expect(() => parseS3Url('https://minio.local/files')).toThrow('S3_URL must start with s3://');
    expect(() => parseS3Url('s3://minio.local/files')).toThrow('access key');
    expect(() => parseS3Url('s3://a:b@minio.local/')).toThrow('one bucket');
  });
});
