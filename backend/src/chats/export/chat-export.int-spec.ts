import request from 'supertest';
import { DataSource } from 'typeorm';
import * as yauzl from 'yauzl';
import { pdfBytes, pngBytes } from '../../../test/attachments.test-util';
import type { MessageAttachment } from '../../contracts/chats';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../../test/app.test-util';
import { as } from '../../../test/auth';
import { newAgent, newChat, newMembership, newMessage } from '../../../test/factories';
import { MessagesRepository } from '../messages.repository';
import { EXPORT_PAGE_SIZE } from './chat-export.service';

describe('GET /api/chats/:id/export (a chat as Markdown or JSON)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const scopeOf = (user: RegisteredUser) => ({ userId: user.userId, companyId: user.companyId });

  /** A chat with a typed exchange and a voice call's turn, named so the file name needs cleaning. */
  async function conversation(user: RegisteredUser) {
    const agent = await newAgent(t.app, scopeOf(user), { name: 'Travel *Bot*' });
    const chat = await newChat(t.app, scopeOf(user), { agent, title: 'Trip: "Hydra" / Égine?' });
    await newMessage(t.app, scopeOf(user), chat.id, { content: 'Which ferry goes first?' });
    await t.app.get(MessagesRepository).insert({
      chatId: chat.id,
      senderId: agent.id,
      senderType: 'agent',
      content: 'The **07:30** from Piraeus.',
    });
    await t.app.get(MessagesRepository).insertVoiceTurn(t.app.get(DataSource).manager, {
      chatId: chat.id,
      senderId: agent.id,
      senderType: 'agent',
      content: 'Said in a call: bring a hat.',
      voiceEventId: 'conv-1:7',
    });
    return { agent, chat };
  }

  const download = (user: RegisteredUser, chatId: string, format?: string) =>
    request(t.http)
      .get(`/api/chats/${chatId}/export`)
      .query(format ? { format } : {})
      .set(as(user))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });

  it('downloads Markdown with **You** / **{agent}** turns, times and voice turns marked', async () => {
    const user = await registerUser(t);
    const { chat } = await conversation(user);
    const res = await download(user, chat.id, 'md').expect(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="Trip-Hydra-Egine\.md"; filename\*=UTF-8''[^'"\s;]+$/);
    // The title itself (less the path separator) in filename*, percent-encoded.
    expect(decodeURIComponent(disposition.split("UTF-8''")[1])).toBe('Trip: "Hydra"  Égine?.md');
    const text = res.body as string;
    expect(text).toMatch(/^# Trip: "Hydra" \/ Égine\?\n\nConversation with Travel \\\*Bot\\\*, started /);
    const turns = text.split('\n').filter((line) => line.startsWith('**'));
    expect(turns).toEqual([
      expect.stringMatching(/^\*\*You\*\* · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
      expect.stringMatching(/^\*\*Travel \\\*Bot\\\*\*\* · .* UTC$/),
      expect.stringMatching(/^\*\*Travel \\\*Bot\\\*\*\* · .* UTC \(voice\)$/),
    ]);
    expect(text).toContain('\n\nWhich ferry goes first?\n');
    expect(text).toContain('\n\nThe **07:30** from Piraeus.\n');
    expect(text.indexOf('Which ferry')).toBeLessThan(text.indexOf('bring a hat'));
    // Markdown is the default format.
    expect((await download(user, chat.id).expect(200)).body).toContain('**You**');
  });

  it('downloads JSON with the messages array: role, content, is_voice_message, created_at', async () => {
    const user = await registerUser(t);
    const { chat } = await conversation(user);
    const res = await download(user, chat.id, 'json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Trip-Hydra-Egine\.json"/);
    const doc = JSON.parse(res.body as string);
    expect(doc.chat).toEqual(
      expect.objectContaining({ id: chat.id, title: 'Trip: "Hydra" / Égine?', agent: 'Travel *Bot*' }),
    );
    expect(doc.messages).toEqual([
      expect.objectContaining({
        role: 'user',
        sender: 'You',
        content: 'Which ferry goes first?',
        is_voice_message: false,
      }),
      expect.objectContaining({
        role: 'agent',
        content: 'The **07:30** from Piraeus.',
        is_voice_message: false,
      }),
      expect.objectContaining({
        role: 'agent',
        content: 'Said in a call: bring a hat.',
        is_voice_message: true,
      }),
    ]);
    for (const message of doc.messages)
      expect(new Date(message.created_at).toISOString()).toBe(message.created_at);
  });

  it('exports every message of a chat longer than one read page, in order', async () => {
    const user = await registerUser(t);
    const chat = await newChat(t.app, scopeOf(user), { messages: EXPORT_PAGE_SIZE + 3 });
    const doc = JSON.parse((await download(user, chat.id, 'json').expect(200)).body as string);
    expect(doc.messages.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: EXPORT_PAGE_SIZE + 3 }, (_, i) => `m${i + 1}`),
    );
    const empty = await newChat(t.app, scopeOf(user));
    expect(JSON.parse((await download(user, empty.id, 'json').expect(200)).body as string).messages).toEqual(
      [],
    );
  });

  it("is the owner's alone: another member, another company or a bad format gets nothing", async () => {
    const owner = await registerUser(t);
    const { chat } = await conversation(owner);
    const admin = await registerUser(t);
    await newMembership(t.app, owner, admin, 'admin');
    const refused = await request(t.http)
      .get(`/api/chats/${chat.id}/export`)
      .set(as(admin, owner.companyId))
      .expect(404);
    expect(refused.body.message).toBe('Chat not found');
    const outsider = await registerUser(t);
    await request(t.http).get(`/api/chats/${chat.id}/export`).set(as(outsider)).expect(404);
    await request(t.http).get(`/api/chats/${chat.id}/export`).set(as(outsider, owner.companyId)).expect(404);
    const bad = await request(t.http)
      .get(`/api/chats/${chat.id}/export?format=pdf`)
      .set(as(owner))
      .expect(400);
    expect(bad.body.message).toBe('format must be md, json or zip');
    await request(t.http).get('/api/chats/not-a-uuid/export').set(as(owner)).expect(404);
  });

  describe('with files', () => {
    /** A chat whose message carries a PNG and a PDF (uploaded and sent as a person does), then a reply. */
    async function withFiles(user: RegisteredUser) {
      const chat = await newChat(t.app, scopeOf(user), { title: 'Files' });
      const png = await pngBytes(8, 4);
      const pdf = pdfBytes(150_000);
      const up = async (name: string, bytes: Buffer) =>
        (
          await request(t.http)
            .post(`/api/chats/${chat.id}/attachments`)
            .set(as(user))
            .attach('file', bytes, name)
            .expect(201)
        ).body as MessageAttachment;
      const image = await up('chart (v2).png', png);
      const doc = await up('report.pdf', pdf);
      await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(user))
        .send({ content: 'Both attached', attachmentIds: [image.id, doc.id] })
        .expect(201);
      const storedPng = (await request(t.http).get(image.url).buffer(true).expect(200)).body as Buffer;
      return { chat, image, doc, pdf, storedPng };
    }

    it("lists each message's files in Markdown and JSON with signed links that fetch them", async () => {
      const user = await registerUser(t);
      const { chat, doc, pdf } = await withFiles(user);
      const md = (await download(user, chat.id, 'md').expect(200)).body as string;
      expect(md).toMatch(/File links work until \d{4}-\d\d-\d\d \d\d:00:00 UTC; export as ZIP/);
      expect(md).toContain('Both attached\n\n- 📎 [chart (v2).png](<http');
      const pdfLine = md.split('\n').find((line) => line.includes('[report.pdf]'));
      expect(pdfLine).toMatch(/^- 📎 \[report\.pdf\]\(<http:\/\/[^>]+>\) \(application\/pdf, 146 KB\)$/);
      const mdLink = new URL(/\(<([^>]+)>\)/.exec(pdfLine as string)?.[1] as string);
      const fetched = await request(t.http)
        .get(`${mdLink.pathname}${mdLink.search}`)
        .buffer(true)
        .expect(200);
      expect(Buffer.compare(fetched.body as Buffer, pdf)).toBe(0);

      const json = JSON.parse((await download(user, chat.id, 'json').expect(200)).body as string);
      expect(new Date(json.file_links_expire_at).getTime()).toBeGreaterThan(Date.now());
      expect(json.messages[0].files).toEqual([
        expect.objectContaining({ name: 'chart (v2).png', mime_type: 'image/png', url: expect.any(String) }),
        {
          id: doc.id,
          name: 'report.pdf',
          mime_type: 'application/pdf',
          size: pdf.length,
          url: expect.any(String),
        },
      ]);
    });

    it('puts the files themselves in a ZIP with the transcript as Markdown and JSON', async () => {
      const user = await registerUser(t);
      const { chat, pdf, storedPng } = await withFiles(user);
      const res = await request(t.http)
        .get(`/api/chats/${chat.id}/export?format=zip`)
        .set(as(user))
        .buffer(true)
        .parse((response, done) => {
          const parts: Buffer[] = [];
          response.on('data', (piece: Buffer) => parts.push(piece));
          response.on('end', () => done(null, Buffer.concat(parts)));
        })
        .expect(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Files\.zip"/);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).toEqual([
        'chat.md',
        'chat.json',
        'files/0001-chart (v2).png',
        'files/0002-report.pdf',
      ]);
      expect(Buffer.compare(entries.get('files/0002-report.pdf') as Buffer, pdf)).toBe(0);
      expect(Buffer.compare(entries.get('files/0001-chart (v2).png') as Buffer, storedPng)).toBe(0);
      const md = (entries.get('chat.md') as Buffer).toString('utf8');
      expect(md).toContain('- 📎 ![chart (v2).png](<files/0001-chart (v2).png>) (image/png,');
      expect(md).toContain('- 📎 [report.pdf](<files/0002-report.pdf>) (application/pdf, 146 KB)');
      expect(md).not.toContain('File links work until');
      const json = JSON.parse((entries.get('chat.json') as Buffer).toString('utf8'));
      expect(json.messages[0].files.map((f: { path: string }) => f.path)).toEqual([
        'files/0001-chart (v2).png',
        'files/0002-report.pdf',
      ]);
    });
  });
});

/** Every entry of a ZIP archive, by name, in the archive's order. */
function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const parts: Buffer[] = [];
          stream.on('data', (piece: Buffer) => parts.push(piece));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
