import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** s3rver ships no types: what the tests use of it. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

/**
 * A local S3-compatible server (s3rver) on a free port, with one bucket; its S3_URL. `stop` drops it like
 * a crash (open connections cut), `start` brings it back on the same port and directory.
 */
export async function startS3rver(bucket = 'switchboard-test'): Promise<{
  url: string;
  directory: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
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
  };
}
