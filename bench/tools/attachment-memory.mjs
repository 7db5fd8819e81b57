// What sending a large attachment costs the api: time and resident memory. The app (as `npm start`
// runs it: embedded PostgreSQL, attachments' bytes in PostgreSQL chunks) receives a 5 MB PDF upload,
// sends it with a message to an instant webhook, and serves it back by its signed link. RSS is sampled
// from /proc every 5 ms during each step; an upload streamed to storage (not held whole) grows the api's
// RSS by less than the file's size. The baseline is the file's size itself: growth / size < 1.
//   node bench/tools/attachment-memory.mjs     (ATTACHMENT_MB=5 by default; `npx nest build` first)
import { signUp } from '../lib/clients.mjs';
import { armOverallTimeout, cleanup, failAndExit, installProcessHandlers } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { buildIfMissing, startApp, startWebhook } from '../lib/servers.mjs';
import { rssKb } from '../lib/sockets.mjs';
import { delay } from '../lib/util.mjs';

installProcessHandlers();

const SIZE = Math.round((Number(process.env.ATTACHMENT_MB) || 5) * 1024 * 1024);

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

/** Runs `work` while sampling the process's RSS: the time it took and the peak growth over `before`. */
async function measured(pid, work) {
  global.gc?.();
  await delay(300);
  const before = rssKb(pid);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssKb(pid) ?? 0);
      await delay(5);
    }
  })();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  sampling = false;
  await sampler;
  return { result, ms, growthKb: peak - before, beforeKb: before };
}

async function main() {
  armOverallTimeout();
  buildIfMissing();
  const webhook = await startWebhook();
  const app = await startApp(webhook.hostPort, undefined, {
    MAX_ATTACHMENT_MB: String(Math.ceil(SIZE / 1024 / 1024) + 1),
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
  const up = await measured(app.pid, () => upload(pdf, 'big.pdf'));
  rows.push(['upload (multipart, streamed to file_chunks)', up]);
  const send = await measured(app.pid, async () => {
    const before = webhook.calls();
    await api.call(
      'POST',
      `/api/chats/${chatId}/messages`,
      { content: 'read this', attachmentIds: [up.result.id] },
      201,
    );
    while (webhook.calls() === before) await delay(5);
  });
  rows.push(['send with the file (webhook gets a link)', send]);
  const serve = await measured(app.pid, async () => {
    const res = await fetch(`${app.base}${up.result.url}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!bytes.equals(pdf)) throw new Error('the file served is not the file uploaded');
  });
  rows.push(['download by signed link (streamed from file_chunks)', serve]);

  console.log(
    `\nAttachment of ${fmt(SIZE / 1024 / 1024)} MB: the api's time and RSS growth (peak over the step's start)\n`,
  );
  console.log(
    table(
      ['step', 'ms', 'RSS before (MB)', 'RSS growth (MB)', 'growth / file size'],
      rows.map(([step, m]) => [
        step,
        fmt(m.ms),
        fmt(m.beforeKb / 1024),
        fmt(m.growthKb / 1024),
        fmt((m.growthKb * 1024) / SIZE),
      ]),
    ),
  );
}

main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch(failAndExit);
