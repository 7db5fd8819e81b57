import { Logger } from '@nestjs/common';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import { newChatIn, pdfBytes, slowUpload } from '../../test/attachments.test-util';
import { startS3rver } from '../../test/s3rver.test-util';
import { InlineJobQueue } from '../queue/inline-job-queue';
import { JobQueue } from '../queue/job-queue';
import { ATTACHMENT_STORE } from '../files/attachment-store';
import {
  ABANDONED_UPLOAD_MS,
  FILE_STORE_UNAVAILABLE,
  parseS3Url,
  S3AttachmentStore,
} from '../files/s3-attachment-store';

// A multipart upload cut by an S3 outage leaves its parts in the bucket (billed, in no object listing)
// when its abort cannot get through either. The abort is tried again in the background until S3 answers
// (stopped, not waited for, by a shutdown), and a sweep at start and every hour aborts the incomplete
// uploads under the app's prefix that are older than ABANDONED_UPLOAD_MS. On s3rver, with the two
// multipart operations it lacks added by the test helper over its own store.
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('multipart uploads an S3 outage left in the bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let client: S3Client;
  let Bucket: string;
  const apps: TestApp[] = [];
  const pdf = pdfBytes(8 * MB); // two parts: 5 MB, then the rest

  /** Keys of the incomplete multipart uploads, as S3 lists them (the SDK's own command). */
  const listed = async (Prefix?: string): Promise<string[]> =>
    ((await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix }))).Uploads ?? []).map(
      (u) => u.Key ?? '',
    );
  const create = async (Key: string): Promise<string> =>
    (await client.send(new CreateMultipartUploadCommand({ Bucket, Key }))).UploadId ?? '';

  async function app(): Promise<TestApp> {
    const t = await createTestApp({ S3_URL: s3.url, MAX_ATTACHMENT_MB: '10' });
    apps.push(t);
    return t;
  }

  /** An 8 MB upload cut by stopping the S3 server once its first part is stored: 503. */
  async function cutUpload(t: TestApp): Promise<string> {
    const user = await registerUser(t);
    const chatId = await newChatIn(t, user);
    let uploadId = '';
    const { status, body } = await slowUpload(t, user, chatId, pdf, 6 * MB, async () => {
      await until('the first part', async () => {
        [uploadId = ''] = await s3.uploads();
        return existsSync(join(s3.directory, Bucket, '._S3rver_uploads', uploadId, '1.md5'));
      });
      await s3.stop();
    });
    expect({ status, message: body.message }).toEqual({ status: 503, message: FILE_STORE_UNAVAILABLE });
    return uploadId;
  }

  beforeAll(async () => {
    s3 = await startS3rver();
    const location = parseS3Url(s3.url);
    Bucket = location.bucket;
    client = new S3Client({
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: true,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
    });
  });

  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
    await s3.start();
    for (const id of await s3.uploads()) await s3.ageUpload(id, 0).catch(() => undefined);
    // Each test starts with an empty list of uploads.
    const left = (await client.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? [];
    for (const u of left)
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
  });

  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  it('the test server lists and aborts multipart uploads as S3 does (prefix, NoSuchUpload)', async () => {
    const id = await create('attachments/a');
    await create('elsewhere/b');
    expect(await listed('attachments/')).toEqual(['attachments/a']);
    expect((await listed()).sort()).toEqual(['attachments/a', 'elsewhere/b']);
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key: 'attachments/a', UploadId: id }));
    expect(await listed('attachments/')).toEqual([]);
    await expect(
      client.send(new AbortMultipartUploadCommand({ Bucket, Key: 'attachments/a', UploadId: id })),
    ).rejects.toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
  });

  it('a cut upload is aborted in the background as soon as S3 answers again', async () => {
    const t = await app();
    const uploadId = await cutUpload(t);
    // S3 is away: the upload and its first part stay, through a few of the retries.
    await sleep(1500);
    expect(await s3.uploads()).toEqual([uploadId]);
    expect(existsSync(join(s3.directory, Bucket, '._S3rver_uploads', uploadId, '1.md5'))).toBe(true);

    await s3.start();
    await until('the retried abort', async () => (await listed()).length === 0);
    expect(await s3.uploads()).toEqual([]);
  }, 60_000);

  it('a shutdown stops the retries without waiting for S3; the next start sweeps the upload once it is old', async () => {
    const t = await app();
    const store = t.app.get<S3AttachmentStore>(ATTACHMENT_STORE);
    const uploadId = await cutUpload(t);
    await sleep(1200); // retrying: between two tries
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const started = Date.now();
      await t.close();
      apps.splice(apps.indexOf(t), 1);
      const closeMs = Date.now() - started;
      // The retries are over the moment the app is closed, with a warning naming the upload.
      let settled = false;
      void store.settled().then(() => (settled = true));
      await sleep(20);
      expect({ settled, closedWithin2s: closeMs < 2000 }).toEqual({ settled: true, closedWithin2s: true });
      expect(warn.mock.calls.map(([message]) => String(message))).toContainEqual(
        expect.stringMatching(new RegExp(`${uploadId} of attachments/[0-9a-f-]{36} \\(shutting down\\)`)),
      );
    } finally {
      warn.mockRestore();
    }

    // Nothing tries again after the shutdown: S3 back, the upload stays past the next try's time.
    await s3.start();
    await sleep(3000);
    expect((await listed()).length).toBe(1);

    // A restart does not forget it: once it is older than the threshold, the sweep at start aborts it.
    await s3.ageUpload(uploadId, ABANDONED_UPLOAD_MS + 60_000);
    await app();
    await until('the sweep at start', async () => (await listed()).length === 0);
    expect(await s3.uploads()).toEqual([]);
  }, 60_000);

  it('the sweep aborts old incomplete uploads of ours, at start and every hour, and leaves the rest alone', async () => {
    const old = ABANDONED_UPLOAD_MS + 60_000;
    const keys = {
      old1: `attachments/${randomUUID()}`,
      old2: `attachments/${randomUUID()}`,
      recent: `attachments/${randomUUID()}`,
      outside: `exports/${randomUUID()}`,
      notAFile: 'attachments/backup.tar', // under the prefix, but no key of ours
    };
    const ids = {
      old1: await create(keys.old1),
      old2: await create(keys.old2),
      recent: await create(keys.recent),
      outside: await create(keys.outside),
      notAFile: await create(keys.notAFile),
    };
    // One with a part stored, as a cut upload has.
    await client.send(
      new UploadPartCommand({ Bucket, Key: keys.old1, UploadId: ids.old1, PartNumber: 1, Body: 'part' }),
    );
    await s3.ageUpload(ids.old1, old);
    await s3.ageUpload(ids.old2, old);
    await s3.ageUpload(ids.outside, old);
    await s3.ageUpload(ids.notAFile, old);
    await s3.ageUpload(ids.recent, 60 * 60 * 1000); // an hour: not abandoned yet

    const repeat = jest.spyOn(InlineJobQueue.prototype, 'repeat');
    const t = await app();
    expect(repeat).toHaveBeenCalledWith('files.abort-abandoned-uploads', {}, 60 * 60 * 1000);
    repeat.mockRestore();
    await until('the sweep at start', async () => !(await listed()).includes(keys.old1));
    await until('the sweep at start', async () => !(await listed()).includes(keys.old2));
    expect((await listed()).sort()).toEqual([keys.recent, keys.outside, keys.notAFile].sort());
    expect((await s3.uploads()).sort()).toEqual([ids.recent, ids.outside, ids.notAFile].sort());

    // The hourly job does the same.
    const later = `attachments/${randomUUID()}`;
    await s3.ageUpload(await create(later), old);
    await t.app.get(JobQueue).enqueue('files.abort-abandoned-uploads', {});
    await t.drain();
    expect((await listed()).sort()).toEqual([keys.recent, keys.outside, keys.notAFile].sort());
  }, 60_000);

  it('several nodes sweeping at once is harmless: an upload another aborted first counts as gone', async () => {
    const t = await app();
    const store = t.app.get<S3AttachmentStore>(ATTACHMENT_STORE);
    const other = await S3AttachmentStore.open(parseS3Url(s3.url));
    try {
      const once = await create(`attachments/${randomUUID()}`);
      const [key] = await listed('attachments/');
      expect(await store.abortUpload(key, once)).toBe('aborted');
      expect(await store.abortUpload(key, once)).toBe('gone');

      // Two nodes' sweeps at once over the same five: neither fails, each upload is aborted once.
      for (let i = 0; i < 5; i++)
        await s3.ageUpload(await create(`attachments/${randomUUID()}`), ABANDONED_UPLOAD_MS + 60_000);
      const results = await Promise.all([store.abortAbandonedUploads(), other.abortAbandonedUploads()]);
      expect(results.reduce((sum, r) => sum + (r?.aborted ?? 0), 0)).toBe(5);
      expect(await listed()).toEqual([]);
    } finally {
      other.destroy();
    }
  }, 60_000);
});
