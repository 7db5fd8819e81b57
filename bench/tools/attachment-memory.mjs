// What sending a large attachment costs the api: time and memory. The app (as `npm start` runs it:
// embedded PostgreSQL, attachments' bytes in PostgreSQL chunks; ATTACHMENT_STORE=s3: in a local s3rver
// bucket) receives a 5 MB PDF upload, sends it with a message to an instant webhook, and serves it back
// by its signed link; then 20 uploads in a row (does memory stay bounded?) and 10 at once.
//
// The app runs with --expose-gc and bench/lib/memory-probe.cjs, so each step is measured from a
// collected heap: the peak growth of RSS (sampled from /proc every 5 ms) and of V8's heapUsed, external
// and arrayBuffers (sampled in the app), then what is still held after a forced full collection
// (garbage waiting for a collection shows in the peak, not in "held"). The baseline is the file's size:
// an upload streamed to storage, not held whole, grows RSS by less than about the file's size.
// PROBE_COLLECT_MS=100: the app also collects every 100 ms during a step (slower), so its peak shows
// what the step holds live: an upload's socket reads are garbage V8 does not collect during the upload.
//   node bench/tools/attachment-memory.mjs   (ATTACHMENT_MB=5, UPLOADS_IN_A_ROW=20, UPLOADS_AT_ONCE=10;
//                                             ATTACHMENT_STORE=s3; PROBE_COLLECT_MS; `npx nest build` first)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { signUp } from '../lib/clients.mjs';
import { BENCH_DIR } from '../lib/config.mjs';
import {
  armOverallTimeout,
  cleanup,
  failAndExit,
  installProcessHandlers,
  onCleanup,
} from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { buildIfMissing, startApp, startWebhook } from '../lib/servers.mjs';
import { rssKb } from '../lib/sockets.mjs';
import { delay } from '../lib/util.mjs';

installProcessHandlers();

const MB = 1024 * 1024;
const SIZE = Math.round((Number(process.env.ATTACHMENT_MB) || 5) * MB);
const IN_A_ROW = Number(process.env.UPLOADS_IN_A_ROW) || 20;
const AT_ONCE = Number(process.env.UPLOADS_AT_ONCE) || 10;
const STORE = process.env.ATTACHMENT_STORE === 's3' ? 's3' : 'pg';
const FIELDS = ['rss', 'heapUsed', 'external', 'arrayBuffers'];

/** A valid PDF header and trailer around `size` bytes of comment padding. */
function pdfOf(size) {
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n',
  );
  const tail = Buffer.from('trailer<</Root 1 0 R>>\n%%EOF\n');
  const pad = Buffer.alloc(size - head.length - tail.length, 0x41);
  pad[0] = 0x25; // '%': a comment line
  return Buffer.concat([head, pad, tail]);
}

/** A local S3-compatible bucket (s3rver, as the backend's tests use), for ATTACHMENT_STORE=s3. */
async function startS3() {
  const S3rver = createRequire(import.meta.url)('s3rver');
  const directory = mkdtempSync(join(os.tmpdir(), 'bench-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'bench' }],
  });
  const { port } = await server.run();
  onCleanup('s3rver', async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return `s3://S3RVER:S3RVER@127.0.0.1:${port}/bench?forcePathStyle=true&tls=false`;
}

/** One request to the app's memory probe and its answer. */
function probe(child, kind) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message?.probe !== kind) return;
      child.off('message', onMessage);
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    };
    child.on('message', onMessage);
    child.send({ probe: kind });
  });
}

const collected = async (child) => (await probe(child, 'gc')).usage;

/**
 * Runs `work` from a collected heap: its time, the peak growth of each of memoryUsage()'s fields over
 * the start (RSS also sampled from /proc every 5 ms), and the growth still held after a full collection.
 */
async function measured(app, work) {
  const base = await collected(app.child);
  await probe(app.child, 'start');
  let peakRss = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakRss = Math.max(peakRss, (rssKb(app.pid) ?? 0) * 1024);
      await delay(5);
    }
  })();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  sampling = false;
  await sampler;
  const { peaks } = await probe(app.child, 'stop');
  peaks.rss = Math.max(peaks.rss, peakRss);
  const after = await collected(app.child);
  const growth = (of) => Object.fromEntries(FIELDS.map((f) => [f, of[f] - base[f]]));
  return { result, ms, base, peak: growth(peaks), held: growth(after) };
}

async function main() {
  armOverallTimeout();
  buildIfMissing();
  const webhook = await startWebhook();
  const extraEnv = { MAX_ATTACHMENT_MB: String(Math.ceil(SIZE / MB) + 1) };
  if (STORE === 's3') extraEnv.S3_URL = await startS3();
  const app = await startApp(webhook.hostPort, undefined, extraEnv, {
    nodeArgs: ['--expose-gc', '--require', join(BENCH_DIR, 'lib', 'memory-probe.cjs')],
    ipc: true,
  });
  const { api, newChat } = await signUp(app.base, webhook.url);
  const auth = { authorization: `Bearer ${api.session.token}`, 'x-company-id': api.session.companyId };
  const chatId = await newChat('attachments');
  const pdf = pdfOf(SIZE);
  const upload = async (bytes, name) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
    const res = await fetch(`${app.base}/api/chats/${chatId}/attachments`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  // Warm-up: the first upload loads file-type, the route and the pool's statements.
  const warm = await upload(pdfOf(64 * 1024), 'warm.pdf');
  await fetch(`${app.base}${warm.url}`).then((r) => r.arrayBuffer());

  const rows = [];
  const up = await measured(app, () => upload(pdf, 'big.pdf'));
  rows.push([`upload (multipart, streamed to ${STORE === 's3' ? 'the bucket' : 'file_chunks'})`, up, SIZE]);
  const send = await measured(app, async () => {
    const before = webhook.calls();
    await api.call(
      'POST',
      `/api/chats/${chatId}/messages`,
      { content: 'read this', attachmentIds: [up.result.id] },
      201,
    );
    while (webhook.calls() === before) await delay(5);
  });
  rows.push(['send with the file (webhook gets a link)', send, SIZE]);
  const serve = await measured(app, async () => {
    const res = await fetch(`${app.base}${up.result.url}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!bytes.equals(pdf)) throw new Error('the file served is not the file uploaded');
  });
  rows.push(['download by signed link (streamed)', serve, SIZE]);

  // In a row: RSS after each upload (no forced collection between them), from a collected start.
  const rowStart = await collected(app.child);
  const afterEach = [];
  const inARow = await measured(app, async () => {
    for (let i = 0; i < IN_A_ROW; i++) {
      await upload(pdf, `row-${i}.pdf`);
      afterEach.push((rssKb(app.pid) ?? 0) * 1024 - rowStart.rss);
    }
  });
  rows.push([`${IN_A_ROW} uploads in a row`, inARow, SIZE]);
  const atOnce = await measured(app, () =>
    Promise.all(Array.from({ length: AT_ONCE }, (_, i) => upload(pdf, `once-${i}.pdf`))),
  );
  rows.push([`${AT_ONCE} uploads at once (data in flight: ${AT_ONCE} files)`, atOnce, SIZE * AT_ONCE]);

  console.log(
    `\nAttachment of ${fmt(SIZE / MB)} MB, store ${STORE}: the api's time and memory growth over the step's ` +
      `start (a collected heap), at its peak and still held after a forced full collection (MB)\n`,
  );
  const mb = (bytes) => fmt(bytes / MB);
  console.log(
    table(
      [
        'step',
        'ms',
        'RSS at start',
        'peak RSS',
        'peak / data',
        'peak heapUsed',
        'peak external',
        'peak arrayBuffers',
        'held RSS',
        'held heapUsed',
        'held external',
      ],
      rows.map(([step, m, data]) => [
        step,
        fmt(m.ms),
        mb(m.base.rss),
        mb(m.peak.rss),
        fmt(m.peak.rss / data),
        mb(m.peak.heapUsed),
        mb(m.peak.external),
        mb(m.peak.arrayBuffers),
        mb(m.held.rss),
        mb(m.held.heapUsed),
        mb(m.held.external),
      ]),
    ),
  );
  const half = Math.floor(afterEach.length / 2);
  console.log(
    `\n${IN_A_ROW} uploads in a row, RSS over the collected start after each (MB): ` +
      afterEach.map(mb).join(' ') +
      `\n  most in the first ${half}: ${mb(Math.max(...afterEach.slice(0, half)))}, in the last ` +
      `${afterEach.length - half}: ${mb(Math.max(...afterEach.slice(half)))} (bounded: the second is not larger)`,
  );
}

main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch(failAndExit);
