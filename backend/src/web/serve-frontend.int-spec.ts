import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { get as httpGet, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testDatabaseUrl } from '../../test/app.test-util';
import { createApp } from '../bootstrap';
import { loadConfig } from '../config/app-config';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The bytes as sent (supertest would decompress them). */
function getRaw(server: Server, path: string, acceptEncoding: string): Promise<RawAnswer> {
  const address = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpGet(
      { host: '127.0.0.1', port: address.port, path, headers: { 'Accept-Encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
  });
}

describe('serving the app and compressed answers (real PostgreSQL)', () => {
  const dist = mkdtempSync(join(tmpdir(), 'switchboard-dist-'));
  const script = `console.log(${JSON.stringify('x'.repeat(5000))});\n`;
  let app: INestApplication;
  let http: Server;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Switchboard</title>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(script));
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'test-secret-that-is-long-enough-0123456789' }),
      databaseUrl: testDatabaseUrl(),
      frontendDist: dist,
    };
    app = await createApp(config, { logger: false });
    await app.listen(0, '127.0.0.1');
    http = app.getHttpServer() as Server;
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli copy built beside an asset to a browser that accepts it', async () => {
    const res = await getRaw(http, '/assets/app-abc123.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
    expect(Number(res.headers['content-length'])).toBeLessThan(script.length / 10);
  });

  it('sends the gzip copy when brotli is not accepted, and the file itself when nothing is', async () => {
    const gz = await getRaw(http, '/assets/app-abc123.js', 'gzip');
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await request(http)
      .get('/assets/app-abc123.js')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
  });

  it('answers client-side routes with the app page, never cached', async () => {
    const res = await request(http).get('/chat').expect(200);
    expect(res.text).toContain('<title>Switchboard</title>');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('compresses large API answers on the fly and leaves small ones alone', async () => {
    const large = await getRaw(http, '/api/docs/json', 'gzip');
    expect(large.status).toBe(200);
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(large.body).toString())).toHaveProperty('openapi');
    const small = await getRaw(http, '/api/health/live', 'gzip');
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses large reads only: a write answers uncompressed, whatever it accepts', async () => {
    const read = await getRaw(http, '/api/docs/json', 'gzip');
    expect(read.headers['content-encoding']).toBe('gzip');
    const post = await request(http)
      .post('/api/auth/login')
      .set('Accept-Encoding', 'gzip')
      .send({ email: 'nobody@example.com', password: 'x'.repeat(3000) });
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect(post.headers['content-encoding']).toBeUndefined();
  });

  it('tags reads for revalidation (304 on If-None-Match) and not writes', async () => {
    const first = await request(http).get('/api/docs/json').expect(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/"/);
    const again = await request(http).get('/api/docs/json').set('If-None-Match', tag).expect(304);
    expect(again.text).toBe('');
    const head = await request(http).head('/api/docs/json').set('If-None-Match', tag);
    expect(head.status).toBe(304);
    const post = await request(http).post('/api/auth/login').send({});
    expect(post.status).toBe(400);
    expect(post.headers.etag).toBeUndefined();
  });
});
