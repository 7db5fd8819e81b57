import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newChatIn, pdfBytes, slowUpload, uploadedTo } from '../../test/attachments.test-util';
import { startS3rver } from '../../test/s3rver.test-util';
import { FILE_STORE_UNAVAILABLE } from '../files/s3-attachment-store';

// The S3 server (S3_URL) goes away in the middle of an upload, after the first 5 MB part is in its
// multipart upload. The request is answered 503 with a sentence (not a 500, not a hang), no files row is
// left to point at whatever the bucket kept, the process keeps serving, and once the server is back the
// same upload succeeds and downloads byte-equal.
const MB = 1024 * 1024;
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a file named `name` is anywhere under `dir`. */
function found(dir: string, name: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory() ? found(join(dir, entry.name), name) : entry.name === name,
  );
}

describe('the S3 server gone in the middle of an upload', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let t: TestApp;
  let user: RegisteredUser;
  let chatId: string;
  const pdf = pdfBytes(8 * MB); // two parts: 5 MB, then the rest

  beforeAll(async () => {
    s3 = await startS3rver();
    t = await createTestApp({ S3_URL: s3.url, MAX_ATTACHMENT_MB: '10' });
    user = await registerUser(t);
    chatId = await newChatIn(t, user);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('answers 503 with a sentence, leaves no row pointing at the bucket, and the same upload then works', async () => {
    const before = await uploadedTo(t, user, chatId, 'before.pdf', pdfBytes(1000));
    const { status, body } = await slowUpload(t, user, chatId, pdf, 6 * MB, async () => {
      // The first part is stored (its checksum file written last): stop the server before the second.
      const deadline = Date.now() + 15_000;
      while (!found(s3.directory, '1.md5') && Date.now() < deadline) await sleep(20);
      expect(found(s3.directory, '1.md5')).toBe(true);
      await s3.stop();
    });
    expect({ status, message: body.message }).toEqual({ status: 503, message: FILE_STORE_UNAVAILABLE });

    const rows: Array<{ n: string; reserved: string }> = await t.app.get(DataSource).query(
      `SELECT count(*) AS n, coalesce(sum(reserved_bytes), 0) AS reserved FROM files
         WHERE chat_id = $1 AND id <> $2`,
      [chatId, before.id],
    );
    expect({ files: Number(rows[0].n), reserved: Number(rows[0].reserved) }).toEqual({
      files: 0,
      reserved: 0,
    });
    // The process keeps serving meanwhile; a stored file's link says the store is away.
    await request(t.http).get('/api/chats').set(as(user)).expect(200);
    const away = await request(t.http).get(before.url);
    expect({ status: away.status, message: away.body.message }).toEqual({
      status: 503,
      message: FILE_STORE_UNAVAILABLE,
    });

    await s3.start();
    const file = await uploadedTo(t, user, chatId, 'cut.pdf', pdf);
    const served = await request(t.http).get(file.url).buffer(true).expect(200);
    expect(sha256(served.body as Buffer)).toBe(sha256(pdf));
    // Only the files that were stored are in the bucket.
    const objects = readdirSync(join(s3.directory, 'switchboard-test'), { recursive: true }).filter((f) =>
      String(f).endsWith('._S3rver_object'),
    );
    expect(objects).toHaveLength(2);
  }, 90_000);
});
