import http from 'node:http';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { MessageAttachment } from '../src/contracts/chats';
import type { RegisteredUser, TestApp } from './app.test-util';
import { as } from './auth';

/** A PNG of `width` x `height`, with EXIF metadata that re-encoding must drop. */
export function pngBytes(width = 20, height = 10): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .withExif({ IFD0: { Artist: 'Secret Photographer' } })
    .png()
    .toBuffer();
}

/** A small, valid one-page PDF, padded to `size` bytes with a comment when asked. */
export function pdfBytes(size = 0): Buffer {
  const body =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
  const pad = Math.max(0, size - body.length);
  return Buffer.concat([
    Buffer.from(body, 'latin1'),
    Buffer.from(`%${'x'.repeat(Math.max(0, pad - 1))}`.slice(0, pad)),
  ]);
}

/** A ZIP archive holding one stored (uncompressed) file. */
export function zipBytes(name = 'notes.txt', content = 'hello from a zip'): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const localPart = Buffer.concat([local, fileName, data]);
  const centralPart = Buffer.concat([central, fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12);
  end.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, end]);
}

/** A minimal Word document as file-type sees one: a zip whose [Content_Types].xml names a Word part. */
export function docxBytes(): Buffer {
  return zipBytes(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
}

/** The start of a Windows executable ("MZ"), whatever it is named. */
export function exeBytes(): Buffer {
  const bytes = Buffer.alloc(512, 0x90);
  bytes.write('MZ', 0, 'latin1');
  return bytes;
}

/** The steps that tests of files repeat, over HTTP on `app` (the shared one, or one with S3_URL set). */
export async function newChatIn(
  app: TestApp,
  user: RegisteredUser,
  agentId = 'default-agent',
): Promise<string> {
  const res = await request(app.http).post('/api/chats').set(as(user)).send({ agentId, title: 'Files' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** An upload to a chat, as the request (to check a refusal). */
export function uploadTo(app: TestApp, user: RegisteredUser, chatId: string, name: string, bytes: Buffer) {
  return request(app.http).post(`/api/chats/${chatId}/attachments`).set(as(user)).attach('file', bytes, name);
}

/** An upload to a chat that must be taken: the stored file. */
export async function uploadedTo(
  app: TestApp,
  user: RegisteredUser,
  chatId: string,
  name: string,
  bytes: Buffer,
): Promise<MessageAttachment> {
  const res = await uploadTo(app, user, chatId, name, bytes);
  expect(res.status).toBe(201);
  return res.body as MessageAttachment;
}

/** How many file_chunks rows these files have. */
export async function chunkCount(app: TestApp, fileIds: readonly string[]): Promise<number> {
  const rows = await app.app
    .get(DataSource)
    .query<Array<{ n: string }>>('SELECT count(*) AS n FROM file_chunks WHERE file_id = ANY($1::uuid[])', [
      fileIds,
    ]);
  return Number(rows[0].n);
}

/** The details of the audit entry of `action` on `targetId` (the only one expected). */
export async function auditDetails(app: TestApp, action: string, targetId: string): Promise<unknown> {
  const rows: Array<{ details: unknown }> = await app.app
    .get(DataSource)
    .query('SELECT details FROM audit_log WHERE action = $1 AND target_id = $2', [action, targetId]);
  expect(rows).toHaveLength(1);
  return rows[0].details;
}

/**
 * A multipart upload written 64 KB at a time, as a slow client sends it; `midway` runs once `pauseAt`
 * bytes of the file are sent (the rest follows when it resolves). Resolves to the answer's status and
 * body, whatever happens to the rest of the request.
 */
export function slowUpload(
  app: TestApp,
  user: RegisteredUser,
  chatId: string,
  bytes: Buffer,
  pauseAt: number,
  midway: () => Promise<void>,
): Promise<{ status: number; body: { statusCode?: number; message?: string } }> {
  const boundary = 'sb-fault-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent: false, // a socket of its own: a kept-alive one may be closed by the server meanwhile
        method: 'POST',
        path: `/api/chats/${chatId}/attachments`,
        headers: {
          ...as(user),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes.length + tail.length,
        },
      },
      (res) => {
        answered = true;
        const pieces: Buffer[] = [];
        res.on('data', (piece: Buffer) => pieces.push(piece));
        res.on('end', () => {
          const text = Buffer.concat(pieces).toString();
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    // The answer may come before the whole body is sent: the server may then close the socket.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = (piece: Buffer) =>
      new Promise<void>((done) => {
        if (req.destroyed || answered) return done();
        if (req.write(piece)) done();
        else req.once('drain', done);
      });
    void (async () => {
      await write(head);
      let midwayDone = false;
      for (let at = 0; at < bytes.length; at += 64 * 1024) {
        if (!midwayDone && at >= pauseAt) {
          midwayDone = true;
          await midway();
        }
        await write(bytes.subarray(at, at + 64 * 1024));
      }
      await write(tail);
      if (!req.destroyed) req.end();
    })().catch(reject);
  });
}
