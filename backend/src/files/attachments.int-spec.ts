import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import {
  auditDetails,
  chunkCount,
  docxBytes,
  exeBytes,
  newChatIn,
  pdfBytes,
  pngBytes,
  uploadedTo,
  uploadTo,
  zipBytes,
} from '../../test/attachments.test-util';
import { startS3rver } from '../../test/s3rver.test-util';
import { as } from '../../test/auth';
import { setSuperadmin } from '../../test/factories';
import {
  connectSocket,
  type EventLog,
  startFakeWebhook,
  type FakeWebhook,
} from '../../test/realtime.test-util';
import type { MessageAttachment, MessageView } from '../contracts/chats';
import { CompanyQuotasService } from '../quotas/company-quotas.service';
import { signWebhook } from '../webhooks/webhook-client';
import { attachmentLinkKey, signAttachmentPath } from './attachment-links';
import { type AgentFile, UNKNOWN_ATTACHMENTS } from './attachments.service';
import { StoredFileEntity } from './stored-file.entity';
import { parseS3Url, S3AttachmentStore } from './s3-attachment-store';

const AGENT_CSV = 'month,sales\njan,3\nfeb,5\n';
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A new agent of the user's answering at `webhook` (with `settings`), as the API gives it back. */
async function newAgent(
  app: TestApp,
  user: RegisteredUser,
  webhook: string,
  settings: Record<string, unknown> = {},
): Promise<{ id: string; signingSecret?: string; sendFilesInline?: boolean }> {
  const res = await request(app.http)
    .post('/api/agents')
    .set(as(user))
    .send({ name: `Agent ${new URL(webhook).pathname}`, webhook, ...settings });
  expect(res.status).toBe(201);
  return res.body as { id: string; signingSecret?: string };
}

/** The agent's reply in the chat, as a tab sees it arrive. */
const agentReply = (tab: EventLog, chatId: string) =>
  tab.waitFor<{ chatId: string; message: MessageView; chat: { lastMessage: string } }>(
    'message.created',
    (p) => p.message.senderType === 'agent' && p.chatId === chatId,
  );

describe('message attachments (upload, serve, send, webhook)', () => {
  let t: TestApp;
  let hook: FakeWebhook;

  beforeAll(async () => {
    hook = await startFakeWebhook({
      // An agent that fetches every file it is sent (as n8n's HTTP Request node would) and answers
      // with their hashes.
      '/fetch-files': (_req, res, body) => {
        const { files = [] } = JSON.parse(body) as { files?: Array<AgentFile & { url: string }> };
        void Promise.all(
          files.map(async (file) => {
            const link = new URL(file.url);
            const got = await fetch(`${t.baseUrl}${link.pathname}${link.search}`);
            return `${file.name}:${got.status}:${sha256(Buffer.from(await got.arrayBuffer()))}`;
          }),
        ).then((lines) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ output: lines.join('\n') }]));
        });
      },
      // Agents that answer with files: a chart inline (base64) and a CSV by URL (served below), then
      // one whose answer is files alone, one of them at an address the SSRF guard refuses.
      '/answer-files': (_req, res) => {
        void pngBytes(12, 6).then((png) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify([
              {
                output: 'Here is the chart and the data.',
                files: [
                  { name: 'chart.png', mimeType: 'image/png', data: png.toString('base64') },
                  { name: 'data.csv', mimeType: 'text/csv', url: `${hook.url}/raw/data.csv` },
                ],
              },
            ]),
          );
        });
      },
      '/only-files': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify([
            {
              files: [
                { name: 'data.csv', mimeType: 'text/csv', url: `${hook.url}/raw/data.csv` },
                { name: 'metadata.txt', url: 'http://169.254.169.254/latest/meta-data' },
              ],
            },
          ]),
        );
      },
      // A long-running agent: accepts with 202 and delivers later to the callback (the test does).
      '/async-files': (_req, res) => {
        res.writeHead(202);
        res.end();
      },
      // A streamed answer (n8n NDJSON) whose end chunk carries the files.
      '/stream-files': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify({ type: 'begin', metadata: { nodeId: 'n1' } })}\n`);
        res.write(`${JSON.stringify({ type: 'item', content: 'Streamed, ', metadata: { nodeId: 'n1' } })}\n`);
        res.write(
          `${JSON.stringify({ type: 'item', content: 'with a file.', metadata: { nodeId: 'n1' } })}\n`,
        );
        res.end(
          `${JSON.stringify({
            type: 'end',
            metadata: { nodeId: 'n1' },
            files: [{ name: 'data.csv', mimeType: 'text/csv', url: `${hook.url}/raw/data.csv` }],
          })}\n`,
        );
      },
      '/raw/data.csv': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(AGENT_CSV);
      },
      // An agent that cannot fetch: it reads the files from the body (inline mode).
      '/inline-files': (_req, res, body) => {
        const { files = [] } = JSON.parse(body) as { files?: Array<{ fileName: string; data: string }> };
        res.writeHead(200, { 'content-type': 'application/json' });
        const lines = files.map((f) => `${f.fileName}:${sha256(Buffer.from(f.data, 'base64'))}`);
        res.end(JSON.stringify([{ output: lines.join('\n') }]));
      },
    });
    t = await createTestApp({
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      WEBHOOK_TIMEOUT_MS: '5000',
      MAX_ATTACHMENT_MB: '1',
    });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const newChat = (user: RegisteredUser, agentId?: string) => newChatIn(t, user, agentId);
  const upload = (user: RegisteredUser, chatId: string, name: string, bytes: Buffer) =>
    uploadTo(t, user, chatId, name, bytes);
  const uploaded = (user: RegisteredUser, chatId: string, name: string, bytes: Buffer) =>
    uploadedTo(t, user, chatId, name, bytes);
  const send = (user: RegisteredUser, chatId: string, body: { content?: string; attachmentIds?: string[] }) =>
    request(t.http).post(`/api/chats/${chatId}/messages`).set(as(user)).send(body);
  const agentAt = async (user: RegisteredUser, path: string) =>
    (await newAgent(t, user, `${hook.url}${path}`)).id;
  /** A new chat with the agent at `path`, `content` sent in it, and the agent's reply as `tab` sees it. */
  const ask = async (user: RegisteredUser, tab: EventLog, path: string, content: string) => {
    const chatId = await newChat(user, await agentAt(user, path));
    await send(user, chatId, { content }).expect(201);
    return { chatId, reply: await agentReply(tab, chatId) };
  };
  /** Runs `work` with a tab (a socket) of the user's open; closed after. */
  const withTab = async (user: RegisteredUser, work: (tab: EventLog) => Promise<void>): Promise<void> => {
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    try {
      await work(tab);
    } finally {
      tab.close();
    }
  };
  /** The body of the webhook call for a message, once the reply job has made it. */
  const deliveredFor = async (path: string, messageId: string) => {
    const delivered = () =>
      hook.requests.find((r) => r.path === path && JSON.parse(r.body).messageId === messageId);
    for (let waited = 0; !delivered() && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return JSON.parse(delivered()!.body) as { callbackUrl: string; callbackToken: string };
  };

  it('stores a PNG re-encoded (metadata dropped) and a PDF as sent, each served by its signed link', async () => {
    const user = await registerUser(t);
    const chatId = await newChat(user);
    const png = await pngBytes(20, 10);
    expect(png.includes(Buffer.from('Secret Photographer'))).toBe(true);

    const image = await uploaded(user, chatId, 'photo.png', png);
    expect(image).toMatchObject({
      name: 'photo.png',
      mimeType: 'image/png',
      kind: 'image',
      width: 20,
      height: 10,
    });
    const served = await request(t.http).get(image.url).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toMatch(/^inline; filename="photo.png"/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const body = served.body as Buffer;
    expect(body.subarray(1, 4).toString()).toBe('PNG');
    expect(body.includes(Buffer.from('Secret Photographer'))).toBe(false);
    expect(Number(served.headers['content-length'])).toBe(image.size);

    const pdf = pdfBytes(300_000);
    const doc = await uploaded(user, chatId, 'report.pdf', pdf);
    expect(doc).toMatchObject({
      name: 'report.pdf',
      mimeType: 'application/pdf',
      kind: 'file',
      size: pdf.length,
    });
    const download = await request(t.http).get(doc.url).buffer(true).expect(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="report.pdf"/);
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(sha256(download.body as Buffer)).toBe(sha256(pdf));

    const csv = await uploaded(user, chatId, 'data.csv', Buffer.from('a,b\n1,ü\n'));
    expect(csv).toMatchObject({ mimeType: 'text/csv', kind: 'file' });
    const json = await uploaded(user, chatId, 'x.json', Buffer.from('{"a": 1}'));
    expect(json.mimeType).toBe('application/json');
    // An Office document is a zip too: its content types tell which one.
    const docx = await uploaded(user, chatId, 'letter.docx', docxBytes());
    expect(docx.mimeType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('refuses what an agent cannot use, each with a sentence, and keeps nothing of it', async () => {
    const user = await registerUser(t);
    const chatId = await newChat(user);
    const refusals: Array<[string, Buffer, number, string | RegExp]> = [
      [
        'setup.pdf',
        exeBytes(),
        400,
        /"setup.pdf" is not a supported file type \(its content is application\/x-msdownload\)/,
      ],
      ['archive.zip', zipBytes(), 400, /"archive.zip" is a ZIP archive, which cannot be attached/],
      ['big.pdf', pdfBytes(1024 * 1024 + 10), 413, '"big.pdf" is too large: files can be at most 1 MB.'],
      ['latin1.csv', Buffer.from([0x61, 0x2c, 0xe9, 0x0a]), 400, /"latin1.csv" is not a text file/],
      ['binary.txt', Buffer.from([0x61, 0x00, 0x62]), 400, /"binary.txt" is not a text file/],
      ['mystery.bin', Buffer.from('just some text'), 400, /"mystery.bin" is not a supported file type/],
      ['empty.txt', Buffer.alloc(0), 400, 'The file is empty.'],
    ];
    for (const [name, bytes, status, message] of refusals) {
      const res = await upload(user, chatId, name, bytes);
      expect([name, res.status]).toEqual([name, status]);
      expect(res.body.message).toEqual(
        typeof message === 'string' ? message : expect.stringMatching(message),
      );
    }
    const none = await request(t.http).post(`/api/chats/${chatId}/attachments`).set(as(user)).field('x', '1');
    expect([none.status, none.body.message]).toEqual([400, 'Please attach a file.']);
    const notMultipart = await request(t.http)
      .post(`/api/chats/${chatId}/attachments`)
      .set(as(user))
      .send({});
    expect([notMultipart.status, notMultipart.body.message]).toEqual([400, 'Please attach a file.']);

    const rows = await t.app.get(DataSource).getRepository(StoredFileEntity).countBy({ chatId });
    expect(rows).toBe(0);
  });

  it('sends up to 10 files with or without text, in one transaction, shown in history and live', async () => {
    const user = await registerUser(t);
    const chatId = await newChat(user);
    await withTab(user, async (tab) => {
      const files = [];
      for (let i = 0; i < 11; i++)
        files.push(await uploaded(user, chatId, `n${i}.txt`, Buffer.from(`note ${i}`)));
      const eleven = await send(user, chatId, { attachmentIds: files.map((f) => f.id) });
      expect([eleven.status, eleven.body.message]).toEqual([400, 'A message can carry at most 10 files.']);
      const blank = await send(user, chatId, { content: '   ' });
      expect([blank.status, blank.body.message]).toEqual([400, 'Please enter a message']);

      const ten = files.slice(0, 10).map((f) => f.id);
      const sent = await send(user, chatId, { attachmentIds: ten });
      expect(sent.status).toBe(201);
      const message = sent.body as MessageView;
      expect(message.content).toBe('');
      expect(message.attachments?.map((a) => a.name)).toEqual(files.slice(0, 10).map((f) => f.name));
      const live = await tab.waitFor<{ message: MessageView }>(
        'message.created',
        (p) => p.message.id === message.id,
      );
      expect(live.message.attachments?.map((a) => a.id)).toEqual(ten);
      await tab.waitFor<{ message: MessageView }>('message.created', (p) => p.message.senderType === 'agent');

      // A file already sent, or another chat's, sends nothing (not even the text).
      const again = await send(user, chatId, { content: 'again', attachmentIds: [ten[0]] });
      expect([again.status, again.body.message]).toEqual([
        400,
        'An attached file was not found or was already sent. Please attach it again.',
      ]);
      const otherChat = await newChat(user);
      const elsewhere = await send(user, otherChat, { content: 'x', attachmentIds: [files[10].id] });
      expect(elsewhere.status).toBe(400);
      const page = await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
      const history = (page.body as { messages: MessageView[] }).messages;
      expect(history.map((m) => m.content)).not.toContain('again');
      const withFiles = history.find((m) => m.id === message.id);
      expect(withFiles?.attachments).toHaveLength(10);
      const text = await request(t.http).get(withFiles!.attachments![3].url).expect(200);
      expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(text.text).toBe('note 3');
    });
  });

  it('gives files only by a valid link: 404 to others and signed-out requests, 410 once expired', async () => {
    const user = await registerUser(t);
    const stranger = await registerUser(t);
    const chatId = await newChat(user);
    const file = await uploaded(user, chatId, 'secret.pdf', pdfBytes());
    const bare = `/api/attachments/${file.id}`;

    await request(t.http).get(bare).expect(404);
    await request(t.http).get(bare).set(as(stranger)).expect(404);
    await request(t.http).get(bare).set(as(user)).expect(404);
    await request(t.http)
      .get(`${bare}?expires=99999999999&sig=${'A'.repeat(43)}`)
      .expect(404);
    // Another file's signature does not open this one.
    const other = await uploaded(user, chatId, 'other.pdf', pdfBytes());
    const otherSig = new URL(other.url, t.baseUrl).search;
    await request(t.http).get(`${bare}${otherSig}`).expect(404);

    const key = attachmentLinkKey(t.config.jwtSecret);
    const expired = await request(t.http).get(signAttachmentPath(key, file.id, Date.now() / 1000 - 1));
    expect([expired.status, expired.body.message]).toEqual([
      410,
      'This file link has expired. Open the chat again for a new one.',
    ]);

    // Uploading to someone else's chat (or one in another company) is a 404, before a byte is kept.
    const theirs = await upload(stranger, chatId, 'x.pdf', pdfBytes());
    expect(theirs.status).toBe(404);
    await upload(user, chatId, 'y.pdf', pdfBytes()).set(as(user, stranger.companyId)).expect(404);

    // A deleted chat takes its files with it.
    await request(t.http).delete(`/api/chats/${chatId}`).set(as(user)).expect(204);
    await request(t.http).get(file.url).expect(404);
  });

  it('lists the files in the webhook body as signed links the agent can fetch, covered by the signature', async () => {
    const user = await registerUser(t);
    const agent = await newAgent(t, user, `${hook.url}/fetch-files`, { signed: true });
    const chatId = await newChat(user, agent.id);
    const png = await uploaded(user, chatId, 'chart.png', await pngBytes(8, 8));
    const pdf = pdfBytes(200_000);
    const doc = await uploaded(user, chatId, 'paper.pdf', pdf);
    await withTab(user, async (tab) => {
      const sent = await send(user, chatId, {
        content: 'read these',
        attachmentIds: [png.id, doc.id],
      }).expect(201);
      const reply = await agentReply(tab, chatId);
      const pngServed = (await request(t.http).get(png.url).expect(200)).body as Buffer;
      expect(reply.message.content).toBe(
        [`chart.png:200:${sha256(pngServed)}`, `paper.pdf:200:${sha256(pdf)}`].join('\n'),
      );
      const call = hook.requests.find((r) => JSON.parse(r.body).messageId === (sent.body as MessageView).id);
      const body = JSON.parse(call!.body) as { files: Array<AgentFile & { url: string }> };
      expect(body.files).toEqual([
        { id: png.id, name: 'chart.png', mimeType: 'image/png', size: png.size, url: expect.any(String) },
        {
          id: doc.id,
          name: 'paper.pdf',
          mimeType: 'application/pdf',
          size: pdf.length,
          url: expect.any(String),
        },
      ]);
      const link = new URL(body.files[1].url);
      expect(`${link.protocol}//${link.host}`).toBe(t.config.appOrigin);
      // Valid for ATTACHMENT_LINK_MINUTES (15 by default), not for days.
      const expires = Number(link.searchParams.get('expires'));
      expect(expires * 1000 - Date.now()).toBeGreaterThan(14 * 60_000);
      expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(15 * 60_000);
      const ts = Number(call!.headers['webhook-timestamp']);
      expect(call!.headers['webhook-signature']).toBe(
        signWebhook(agent.signingSecret as string, (sent.body as MessageView).id, ts, call!.body),
      );
    });
  });

  it('sends the files themselves, base64, to an agent set to receive them inline', async () => {
    const user = await registerUser(t);
    const agent = await newAgent(t, user, `${hook.url}/inline-files`, { sendFilesInline: true });
    expect(agent.sendFilesInline).toBe(true);
    const chatId = await newChat(user, agent.id);
    const csvBytes = Buffer.from('name,score\nada,3\n');
    const csv = await uploaded(user, chatId, 'scores.csv', csvBytes);
    const pdf = pdfBytes(100_000);
    const doc = await uploaded(user, chatId, 'small.pdf', pdf);
    await withTab(user, async (tab) => {
      const sent = await send(user, chatId, { attachmentIds: [csv.id, doc.id] }).expect(201);
      const reply = await agentReply(tab, chatId);
      expect(reply.message.content).toBe(`scores.csv:${sha256(csvBytes)}\nsmall.pdf:${sha256(pdf)}`);
      const call = hook.requests.find((r) => JSON.parse(r.body).messageId === (sent.body as MessageView).id);
      const files = (JSON.parse(call!.body) as { files: Array<Record<string, unknown>> }).files;
      expect(files[0]).toEqual({
        id: csv.id,
        name: 'scores.csv',
        fileName: 'scores.csv',
        mimeType: 'text/csv',
        size: csvBytes.length,
        data: csvBytes.toString('base64'),
      });
      expect(files[1]).not.toHaveProperty('url');
    });
  });

  it("stores the files of an agent's answer (inline and fetched through the SSRF guard) and shows them", async () => {
    const user = await registerUser(t);
    await withTab(user, async (tab) => {
      const { chatId, reply } = await ask(user, tab, '/answer-files', 'chart please');
      expect(reply.message.content).toBe('Here is the chart and the data.');
      expect(reply.message.attachments).toEqual([
        expect.objectContaining({
          name: 'chart.png',
          mimeType: 'image/png',
          kind: 'image',
          width: 12,
          height: 6,
        }),
        expect.objectContaining({
          name: 'data.csv',
          mimeType: 'text/csv',
          kind: 'file',
          size: AGENT_CSV.length,
        }),
      ]);
      const csv = await request(t.http).get(reply.message.attachments![1].url).expect(200);
      expect(csv.text).toBe(AGENT_CSV);
      const page = await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
      const stored = (page.body as { messages: MessageView[] }).messages.find(
        (m) => m.id === reply.message.id,
      );
      expect(stored?.attachments?.map((a) => a.name)).toEqual(['chart.png', 'data.csv']);

      // Files alone are an answer (no apology); the one at a refused address is left out.
      const { reply: filesOnly } = await ask(user, tab, '/only-files', 'just the data');
      expect(filesOnly.message.content).toBe('');
      expect(filesOnly.message.attachments?.map((a) => a.name)).toEqual(['data.csv']);
      expect(filesOnly.chat.lastMessage).toBe('📎 data.csv');
    });
  });

  it('takes files in an async callback body too, text optional', async () => {
    const user = await registerUser(t);
    const chatId = await newChat(user, (await newAgent(t, user, `${hook.url}/async-files`)).id);
    await withTab(user, async (tab) => {
      const sent = (await send(user, chatId, { content: 'take your time' }).expect(201)).body as MessageView;
      // The job calls the agent after the send answers: wait for the call to arrive.
      const delivery = await deliveredFor('/async-files', sent.id);
      const callback = new URL(delivery.callbackUrl);
      await request(t.http)
        .post(callback.pathname)
        .set('Authorization', `Bearer ${delivery.callbackToken}`)
        .send({ files: [{ name: 'data.csv', url: `${hook.url}/raw/data.csv` }] })
        .expect(200);
      const reply = await agentReply(tab, chatId);
      expect(reply.message.content).toBe('');
      expect(reply.message.attachments?.map((a) => [a.name, a.size])).toEqual([
        ['data.csv', AGENT_CSV.length],
      ]);
    });
  });

  it("shows the files of a streamed answer's end chunk, from the webhook and from a streamed callback", async () => {
    const user = await registerUser(t);
    await withTab(user, async (tab) => {
      const { reply } = await ask(user, tab, '/stream-files', 'stream it');
      expect(reply.message.content).toBe('Streamed, with a file.');
      expect(reply.message.attachments?.map((a) => [a.name, a.size])).toEqual([
        ['data.csv', AGENT_CSV.length],
      ]);

      // A long-running agent streaming its answer to the callback, files in the end chunk, no text.
      const later = await newChat(user, await agentAt(user, '/async-files'));
      const sent = (await send(user, later, { content: 'later' }).expect(201)).body as MessageView;
      const delivery = await deliveredFor('/async-files', sent.id);
      const callback = new URL(delivery.callbackUrl);
      const lines = [
        { type: 'begin' },
        { type: 'end', files: [{ name: 'data.csv', url: `${hook.url}/raw/data.csv` }] },
      ];
      await request(t.http)
        .post(callback.pathname)
        .set('Authorization', `Bearer ${delivery.callbackToken}`)
        .set('Content-Type', 'application/x-ndjson')
        .send(lines.map((line) => JSON.stringify(line)).join('\n'))
        .expect(200);
      const callbackReply = await agentReply(tab, later);
      expect(callbackReply.message.content).toBe('');
      expect(callbackReply.message.attachments?.map((a) => a.name)).toEqual(['data.csv']);
    });
  });

  it('takes files for a first message before its chat exists (the welcome view), text optional', async () => {
    const user = await registerUser(t);
    const first = (name: string, bytes: Buffer, who: RegisteredUser = user) =>
      request(t.http).post('/api/attachments').set(as(who)).attach('file', bytes, name);
    const pdf = pdfBytes(20_000);
    const doc = (await first('brief.pdf', pdf).expect(201)).body as MessageAttachment;
    expect(doc).toMatchObject({ name: 'brief.pdf', mimeType: 'application/pdf', size: pdf.length });
    // The same refusals as a chat's upload.
    const zip = await first('archive.zip', zipBytes());
    expect([zip.status, zip.body.message]).toEqual([400, expect.stringMatching(/is a ZIP archive/)]);

    // Someone else's upload, or one made into a chat, cannot start a chat: nothing is created.
    const other = await registerUser(t);
    const othersDoc = (await first('theirs.pdf', pdf, other).expect(201)).body as MessageAttachment;
    const chatId = await newChat(user);
    const inChat = await uploaded(user, chatId, 'in-chat.pdf', pdf);
    const chatsBefore = (await request(t.http).get('/api/chats').set(as(user)).expect(200)).body.chats.length;
    for (const id of [othersDoc.id, inChat.id]) {
      const refused = await request(t.http)
        .post('/api/messages')
        .set(as(user))
        .send({ agentId: 'default-agent', content: '', attachmentIds: [id] });
      expect([refused.status, refused.body.message]).toEqual([400, UNKNOWN_ATTACHMENTS]);
    }
    expect((await request(t.http).get('/api/chats').set(as(user)).expect(200)).body.chats.length).toBe(
      chatsBefore,
    );

    const sent = await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: 'default-agent', attachmentIds: [doc.id] })
      .expect(201);
    const { chat, message } = sent.body as {
      chat: { id: string; lastMessage: string };
      message: MessageView;
    };
    expect(message.content).toBe('');
    expect(message.attachments?.map((a) => a.id)).toEqual([doc.id]);
    expect(chat.lastMessage).toBe('📎 brief.pdf');
    const row = await t.app.get(DataSource).getRepository(StoredFileEntity).findOneByOrFail({ id: doc.id });
    expect([row.chatId, row.messageId]).toEqual([chat.id, message.id]);
    // Sent once: it cannot start a second chat.
    await request(t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: 'default-agent', content: 'again', attachmentIds: [doc.id] })
      .expect(400);
  });

  it('deletes a chat with its files (rows and chunks) and audits how many files and bytes went', async () => {
    const user = await registerUser(t);
    const chatId = await newChat(user);
    const pdf = pdfBytes(200_000);
    const sent = await uploaded(user, chatId, 'gone.pdf', pdf);
    const unsent = await uploaded(user, chatId, 'draft.txt', Buffer.from('draft'));
    await send(user, chatId, { content: 'see attached', attachmentIds: [sent.id] }).expect(201);
    const db = t.app.get(DataSource);
    expect(await chunkCount(t, [sent.id, unsent.id])).toBeGreaterThan(0);

    // Another member of another company cannot delete it (404), and nothing is recorded.
    const stranger = await registerUser(t);
    await request(t.http).delete(`/api/chats/${chatId}`).set(as(stranger)).expect(404);

    await request(t.http).delete(`/api/chats/${chatId}`).set(as(user)).expect(204);
    expect(await chunkCount(t, [sent.id, unsent.id])).toBe(0);
    expect(await db.getRepository(StoredFileEntity).countBy({ chatId })).toBe(0);
    await request(t.http).get(sent.url).expect(404);
    const entries: Array<{ details: unknown; actor_id: string; company_id: string; target_label: null }> =
      await db.query(
        `SELECT details, actor_id, company_id, target_label FROM audit_log
         WHERE action = 'chat.deleted' AND target_id = $1`,
        [chatId],
      );
    expect(entries).toEqual([
      {
        // The message, and the agent's reply when it came before the delete.
        details: { messages: expect.any(Number), files: 2, fileBytes: pdf.length + 5 },
        actor_id: user.userId,
        company_id: user.companyId,
        target_label: null,
      },
    ]);
  });

  it("deletes an agent with its chats' files: chunks gone, the quota's bytes freed, audited", async () => {
    const user = await registerUser(t);
    const agent = await newAgent(t, user, `${hook.url}/raw/data.csv`);
    const pdf = pdfBytes(150_000);
    const first = await newChat(user, agent.id);
    const second = await newChat(user, agent.id);
    const files = [
      await uploaded(user, first, 'one.pdf', pdf),
      await uploaded(user, second, 'two.txt', Buffer.from('second chat')),
    ];
    // A chat with another agent keeps its file.
    const kept = await uploaded(user, await newChat(user), 'kept.txt', Buffer.from('kept'));
    const quotas = t.app.get(CompanyQuotasService);
    expect((await quotas.usage(user.companyId)).storedBytesUsed).toBe(pdf.length + 11 + 4);
    expect(
      await chunkCount(
        t,
        files.map((f) => f.id),
      ),
    ).toBeGreaterThan(0);

    await request(t.http).delete(`/api/agents/${agent.id}`).set(as(user)).expect(204);
    expect(
      await chunkCount(
        t,
        files.map((f) => f.id),
      ),
    ).toBe(0);
    expect(await chunkCount(t, [kept.id])).toBe(1);
    expect((await quotas.usage(user.companyId)).storedBytesUsed).toBe(4);
    await request(t.http).get(files[0].url).expect(404);
    expect(await auditDetails(t, 'agent.deleted', agent.id)).toEqual({
      chats: 2,
      files: 2,
      fileBytes: pdf.length + 11,
    });
  });

  describe('with S3_URL set', () => {
    it('keeps the bytes in the bucket, serves them, and deletes them with the chat, agent or company', async () => {
      const s3 = await startS3rver();
      const app = await createTestApp({ S3_URL: s3.url, WEBHOOK_ALLOWED_HOSTS: hook.hostPort });
      const store = await S3AttachmentStore.open(parseS3Url(s3.url));
      const inBucket = async (id: string) =>
        store.read(id).then(
          (body) => (body.destroy(), true),
          () => false,
        );
      try {
        const user = await registerUser(app);
        const chatId = await newChatIn(app, user);
        const pdf = pdfBytes(50_000);
        const file = await uploadedTo(app, user, chatId, 'in-bucket.pdf', pdf);
        const row = await app.app
          .get(DataSource)
          .getRepository(StoredFileEntity)
          .findOneByOrFail({ id: file.id });
        expect(row.storage).toBe('s3');
        const served = await request(app.http).get(file.url).buffer(true).expect(200);
        expect(sha256(served.body as Buffer)).toBe(sha256(pdf));

        await request(app.http).delete(`/api/chats/${chatId}`).set(as(user)).expect(204);
        await request(app.http).get(file.url).expect(404);
        expect(await inBucket(file.id)).toBe(false);
        expect(await auditDetails(app, 'chat.deleted', chatId)).toEqual({
          messages: 0,
          files: 1,
          fileBytes: pdf.length,
        });

        // An agent deleted takes its chats' files out of the bucket; the quota no longer counts them.
        const agent = await newAgent(app, user, `${hook.url}/raw/data.csv`);
        const agentFile = await uploadedTo(app, user, await newChatIn(app, user, agent.id), 'a.pdf', pdf);
        expect(await inBucket(agentFile.id)).toBe(true);
        await request(app.http).delete(`/api/agents/${agent.id}`).set(as(user)).expect(204);
        expect(await inBucket(agentFile.id)).toBe(false);
        expect((await app.app.get(CompanyQuotasService).usage(user.companyId)).storedBytesUsed).toBe(0);
        expect(await auditDetails(app, 'agent.deleted', agent.id)).toEqual({
          chats: 1,
          files: 1,
          fileBytes: pdf.length,
        });

        // A company deleted by the platform admin takes its files' bytes out of the bucket too.
        const other = await registerUser(app);
        const kept = await uploadedTo(app, other, await newChatIn(app, other), 'company.pdf', pdf);
        expect(await inBucket(kept.id)).toBe(true); // there, until the company goes
        const admin = await registerUser(app);
        await setSuperadmin(app.app, admin.userId);
        await request(app.http).delete(`/api/admin/companies/${other.companyId}`).set(as(admin)).expect(204);
        expect(await inBucket(kept.id)).toBe(false);
        expect(await auditDetails(app, 'company.deleted', other.companyId)).toMatchObject({
          chats: 1,
          files: 1,
          fileBytes: pdf.length,
        });
      } finally {
        store.destroy();
        await app.close();
        await s3.close();
      }
    });
  });
});
