import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of a Koa context the added operations use (s3rver is a Koa app). */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  req: IncomingMessage;
  status: number;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** s3rver ships no types: what the tests use of it. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
  middleware: KoaMiddleware[];
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

/** Where s3rver keeps a bucket's multipart uploads in progress: a folder per upload id. */
const uploadsDir = (directory: string, bucket: string) => join(directory, bucket, '._S3rver_uploads');

/**
 * s3rver 3.7 answers ListMultipartUploads with 501 NotImplemented and AbortMultipartUpload with 405: the
 * two are added here, over s3rver's own record of uploads in progress (a folder per upload holding a
 * `key` file; s3rver removes it when the upload completes). The answers are S3's (its XML, NoSuchUpload
 * for an upload that is not there, an upload's initiation time, prefix and key/upload-id markers), so the
 * SDK's own commands parse them; what s3rver lacks is the upload's initiation time, taken from the `key`
 * file's modification time (`ageUpload` moves it back). Request signatures are not checked for these two.
 */
function multipartUploadOperations(directory: string): KoaMiddleware {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- s3rver is CommonJS without types
  const S3Error = require('s3rver/lib/models/error') as new (
    code: string,
    message: string,
    detail?: Record<string, string>,
  ) => Error;
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return async (ctx, next) => {
    const [, bucket, ...keyParts] = ctx.path.split('/');
    if (!bucket) return next();
    const key = keyParts.map(decodeURIComponent).join('/');
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      const prefix = one(ctx.query.prefix) ?? '';
      const keyMarker = one(ctx.query['key-marker']) ?? '';
      const uploadIdMarker = one(ctx.query['upload-id-marker']) ?? '';
      const maxUploads = Math.min(Number(one(ctx.query['max-uploads']) ?? 1000) || 1000, 1000);
      const ids = await readdir(uploadsDir(directory, bucket)).catch(() => [] as string[]);
      const uploads = (
        await Promise.all(
          ids.map(async (id) => {
            const file = join(uploadsDir(directory, bucket), id, 'key');
            const [uploadKey, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]).catch(
              () => [null, null] as const,
            );
            return uploadKey === null ? null : { key: uploadKey, id, initiated: info.mtime };
          }),
        )
      )
        .filter((u): u is { key: string; id: string; initiated: Date } => u !== null)
        .filter((u) => u.key.startsWith(prefix))
        // S3's order: by key, then upload id here; past the markers.
        .sort((a, b) => (a.key === b.key ? a.id.localeCompare(b.id) : a.key < b.key ? -1 : 1))
        .filter((u) =>
          !keyMarker
            ? true
            : u.key > keyMarker || (u.key === keyMarker && !!uploadIdMarker && u.id > uploadIdMarker),
        );
      const page = uploads.slice(0, maxUploads);
      const truncated = uploads.length > page.length;
      const owner = { ID: 'S3RVER', DisplayName: 'S3rver' };
      ctx.body = {
        ListMultipartUploadsResult: {
          '@': { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' },
          Bucket: bucket,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
          ...(truncated ? { NextKeyMarker: page.at(-1)?.key, NextUploadIdMarker: page.at(-1)?.id } : {}),
          Prefix: prefix,
          MaxUploads: maxUploads,
          IsTruncated: truncated,
          Upload: page.map((u) => ({
            Key: u.key,
            UploadId: u.id,
            Initiator: owner,
            Owner: owner,
            StorageClass: 'STANDARD',
            Initiated: u.initiated.toISOString(),
          })),
        },
      };
      return;
    }
    const uploadId = one(ctx.query.uploadId);
    if (ctx.method === 'DELETE' && key && uploadId) {
      const dir = join(uploadsDir(directory, bucket), uploadId.replace(/[^0-9a-zA-Z]/g, ''));
      const storedKey = await readFile(join(dir, 'key'), 'utf8').catch(() => null);
      // Renamed away first: of two aborts at once, one wins and the other finds no upload.
      const aborted = `${dir}.aborted-${randomUUID()}`;
      if (
        storedKey !== key ||
        !(await rename(dir, aborted).then(
          () => true,
          () => false,
        ))
      )
        throw new S3Error(
          'NoSuchUpload',
          'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
          { UploadId: uploadId },
        );
      await rm(aborted, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    return next();
  };
}

/**
 * A local S3-compatible server (s3rver, with the two multipart operations above) on a free port, with
 * one bucket; its S3_URL. `stop` drops it like a crash (open connections cut), `start` brings it back on
 * the same port and directory. `uploads` lists the multipart uploads in progress from s3rver's folder
 * (readable while the server is down); `ageUpload` makes one look initiated `ms` ago.
 */
export async function startS3rver(bucket = 'switchboard-test'): Promise<{
  url: string;
  directory: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
  uploads(): Promise<string[]>;
  ageUpload(uploadId: string, ms: number): Promise<void>;
}> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- s3rver is CommonJS without types
  const S3rver = require('s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const open = async (port: number) => {
    const server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
    });
    // Before s3rver's router (its last middleware), after its XML and error handling.
    server.middleware.splice(server.middleware.length - 1, 0, multipartUploadOperations(directory));
    return { server, port: (await server.run()).port };
  };
  let running: S3rverInstance | null = null;
  const first = await open(0);
  running = first.server;
  const stop = async () => {
    const server = running;
    running = null;
    if (!server) return;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  };
  return {
    url: `s3://S3RVER:S3RVER@127.0.0.1:${first.port}/${bucket}?forcePathStyle=true&tls=false`,
    directory,
    stop,
    start: async () => {
      if (!running) running = (await open(first.port)).server;
    },
    close: async () => {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
    uploads: () => readdir(uploadsDir(directory, bucket)).catch(() => []),
    ageUpload: async (uploadId, ms) => {
      const when = new Date(Date.now() - ms);
      await utimes(join(uploadsDir(directory, bucket), uploadId, 'key'), when, when);
    },
  };
}
