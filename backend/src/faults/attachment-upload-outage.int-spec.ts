import { createHash } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newChatIn, pdfBytes, slowUpload, uploadedTo } from '../../test/attachments.test-util';
import { postgresBinDir, startPostgresServer, type PostgresServer } from '../../test/processes.test-util';
import { DATABASE_UNAVAILABLE } from '../common/all-exceptions.filter';

// PostgreSQL goes away in the middle of an upload's COPY into file_chunks. The request is answered 503
// with a sentence (not a 500, not a hang), nothing of the file is left once the database answers again
// (no files row, no chunk, no held quota), the process keeps serving, and the same upload then succeeds.
const BIN = postgresBinDir();
const describeWithPostgres = BIN ? describe : describe.skip;

const MB = 1024 * 1024;
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithPostgres('PostgreSQL gone in the middle of an upload', () => {
  let pg: PostgresServer;
  let t: TestApp;
  let user: RegisteredUser;
  let chatId: string;
  const pdf = pdfBytes(3 * MB);

  /** A query on the test's own server (a new connection each time: the server comes and goes). */
  async function onServer<T extends Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const db = new Client({ connectionString: pg.url });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  }

  /** The files rows and chunk rows of the chat's uploads, and the company's held quota bytes. */
  async function leftOf(chat: string): Promise<{ files: number; chunks: number; reserved: number }> {
    const [row] = await onServer<{ files: string; chunks: string; reserved: string }>(
      `SELECT (SELECT count(*) FROM files WHERE chat_id = $1) AS files,
              (SELECT count(*) FROM file_chunks c JOIN files f ON f.id = c.file_id WHERE f.chat_id = $1)
                + (SELECT count(*) FROM file_chunks c WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.id = c.file_id))
                AS chunks,
              (SELECT coalesce(sum(reserved_bytes), 0) FROM files WHERE chat_id = $1) AS reserved`,
      [chat],
    );
    return { files: Number(row.files), chunks: Number(row.chunks), reserved: Number(row.reserved) };
  }

  async function waitForChunks(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const [row] = await onServer<{ n: string }>('SELECT count(*) AS n FROM file_chunks');
      if (Number(row.n) > 0) return;
      await sleep(20);
    }
    throw new Error('no chunk row arrived');
  }

  /** Polls until nothing of the chat's uploads is left (the cleanup may wait for the database). */
  async function untilNothingLeft(
    chat: string,
  ): Promise<{ files: number; chunks: number; reserved: number }> {
    const deadline = Date.now() + 20_000;
    let left = await leftOf(chat);
    while ((left.files || left.chunks || left.reserved) && Date.now() < deadline) {
      await sleep(100);
      left = await leftOf(chat);
    }
    return left;
  }

  /** The same file uploaded again succeeds, and downloads byte-equal. */
  async function sameUploadWorks(chat: string): Promise<void> {
    const file = await uploadedTo(t, user, chat, 'cut.pdf', pdf);
    expect(file.size).toBe(pdf.length);
    const served = await request(t.http).get(file.url).buffer(true).expect(200);
    expect(sha256(served.body as Buffer)).toBe(sha256(pdf));
    await onServer('DELETE FROM files WHERE id = $1', [file.id]);
  }

  beforeAll(async () => {
    pg = await startPostgresServer(BIN as string);
    t = await createTestApp({ MAX_ATTACHMENT_MB: '10' }, pg.url);
    user = await registerUser(t);
    chatId = await newChatIn(t, user);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await pg?.destroy();
  });

  it('COPY backend terminated: 503 with a sentence, nothing half-written, the same upload then works', async () => {
    // Inserts into file_chunks wait on this lock: the upload's next COPY is caught in the middle.
    const locker = new Client({ connectionString: pg.url });
    await locker.connect();
    try {
      const cutting: { done?: Promise<void> } = {};
      const answer = slowUpload(t, user, chatId, pdf, MB, async () => {
        await waitForChunks();
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE file_chunks IN SHARE MODE');
        // The rest of the file goes on meanwhile: its next row's COPY waits for the lock, and is cut.
        cutting.done = (async () => {
          let pids: Array<{ pid: number }> = [];
          for (const deadline = Date.now() + 15_000; !pids.length && Date.now() < deadline;) {
            await sleep(20);
            pids = (
              await locker.query<{ pid: number }>(
                `SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY file_chunks%' AND wait_event_type = 'Lock'`,
              )
            ).rows;
          }
          if (pids.length) await locker.query('SELECT pg_terminate_backend($1)', [pids[0].pid]);
          await locker.query('ROLLBACK');
          expect(pids).toHaveLength(1);
        })();
      });
      const { status, body } = await answer;
      await cutting.done;
      expect({ status, message: body.message }).toEqual({ status: 503, message: DATABASE_UNAVAILABLE });
    } finally {
      await locker.end();
    }
    expect(await untilNothingLeft(chatId)).toEqual({ files: 0, chunks: 0, reserved: 0 });
    await request(t.http).get('/api/chats').set(as(user)).expect(200);
    await sameUploadWorks(chatId);
  }, 60_000);

  it('server stopped: 503 with a sentence, nothing half-written once it is back, the same upload then works', async () => {
    const answer = slowUpload(t, user, chatId, pdf, MB, async () => {
      await waitForChunks();
      await pg.stop();
    });
    const { status, body } = await answer;
    expect({ status, message: body.message }).toEqual({ status: 503, message: DATABASE_UNAVAILABLE });
    // The process is still serving: while the database is away it says so.
    const meanwhile = await request(t.http).get('/api/chats').set(as(user));
    expect(meanwhile.status).toBe(503);
    await pg.start();
    expect(await untilNothingLeft(chatId)).toEqual({ files: 0, chunks: 0, reserved: 0 });
    await request(t.http).get('/api/chats').set(as(user)).expect(200);
    await sameUploadWorks(chatId);
  }, 90_000);
});
