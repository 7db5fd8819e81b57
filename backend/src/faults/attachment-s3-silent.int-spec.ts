import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { DomainError } from '../common/domain-errors';
import { FILE_STORE_UNAVAILABLE, parseS3Url, S3AttachmentStore } from '../files/s3-attachment-store';

// An S3 server that accepts connections and then says nothing (hung, or a black-holing proxy), or stops
// in the middle of a download. Every call ends, as "the file store is unavailable", within the store's
// limits (short here) instead of holding the request, and its part in memory, for ever.
const LIMITS = { connectMs: 1_000, idleMs: 400 };

async function* pieces(total: number): AsyncIterable<Buffer> {
  for (let sent = 0; sent < total; sent += 64 * 1024)
    yield Buffer.alloc(Math.min(64 * 1024, total - sent), 7);
}

/** A store on `server`, listening on a free loopback port, with the short limits. */
async function storeOn(server: Server | HttpServer): Promise<S3AttachmentStore> {
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const url = `s3://AK:SK@127.0.0.1:${port}/bucket?tls=false&forcePathStyle=true`;
  return S3AttachmentStore.open(parseS3Url(url), LIMITS);
}

describe('an S3 server that stops answering', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let store: S3AttachmentStore;

  beforeAll(async () => {
    // Reads what it is sent, answers nothing.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.resume();
    });
    store = await storeOn(silent);
  });

  afterAll(async () => {
    store?.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  const unavailable = async (call: Promise<unknown>): Promise<number> => {
    const started = Date.now();
    const error = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).message).toBe(FILE_STORE_UNAVAILABLE);
    return Date.now() - started;
  };

  it('ends an upload as unavailable once the connection is silent for the idle limit', async () => {
    const took = await unavailable(store.write(randomUUID(), pieces(300_000)));
    expect(took).toBeGreaterThanOrEqual(LIMITS.idleMs);
    expect(took).toBeLessThan(10_000);
  });

  it('ends a download that never starts as unavailable', async () => {
    expect(await unavailable(store.read(randomUUID()))).toBeLessThan(10_000);
  });
});

describe('an S3 server that stops in the middle of a download', () => {
  let server: HttpServer;
  let store: S3AttachmentStore;

  beforeAll(async () => {
    // Says the object has 1 MB, sends 1 kB of it, then nothing (the connection stays open).
    server = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(1024 * 1024),
      });
      res.write(Buffer.alloc(1024, 1));
    });
    store = await storeOn(server);
  });

  afterAll(async () => {
    store?.destroy();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('errors the body stream once the connection is silent for the idle limit', async () => {
    const body: Readable = await store.read(randomUUID());
    const started = Date.now();
    let received = 0;
    const outcome = await new Promise<string>((resolve) => {
      body.on('data', (chunk: Buffer) => (received += chunk.length));
      body.on('end', () => resolve('ended'));
      body.on('error', (error) => resolve(`error: ${error.name}`));
    });
    expect(received).toBe(1024);
    expect(outcome).toMatch(/^error: /);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
