import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import { postgresBinDir, startPostgresServer, type PostgresServer } from '../../test/processes.test-util';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';

// PostgreSQL goes away for 6 s while an agent is answering. The answer that comes
// during the outage is stored once the database is back, and the webhook is not called a second time.
const BIN = postgresBinDir();
const describeWithPostgres = BIN ? describe : describe.skip;

describeWithPostgres('the database down for 6 s while a reply is on its way', () => {
  let pg: PostgresServer;
  let hook: FakeWebhook;
  let t: TestApp;
  let release: (() => void) | null = null;

  beforeAll(async () => {
    pg = await startPostgresServer(BIN as string);
    hook = await startFakeWebhook({
      // Answers when the test says so.
      '/gate': (_req: IncomingMessage, res: ServerResponse, body: string) => {
        release = () => {
          const { message } = JSON.parse(body) as { message: string };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify([{ output: `late answer to ${message}` }]));
        };
      },
    });
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '30000' }, pg.url);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await hook?.close();
    await pg?.destroy();
  });

  it('stores the answer once the database is back, and answers 503 meanwhile', async () => {
    const user = await registerUser(t);
    const auth = { Authorization: `Bearer ${user.accessToken}`, 'X-Company-Id': user.companyId };
    const agent = await request(t.http)
      .post('/api/agents')
      .set(auth)
      .send({ name: 'Gate', webhook: `${hook.url}/gate` })
      .expect(201);
    const sent = await request(t.http)
      .post('/api/messages')
      .set(auth)
      .send({ agentId: agent.body.id, content: 'are you there?' })
      .expect(201);
    const messageId = sent.body.message.id as string;
    const deadline = Date.now() + 10_000;
    while (!release && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(release).not.toBeNull();

    await pg.stop();
    const down = Date.now();
    release!(); // the agent answers while the database is away
    const meanwhile = await request(t.http).get('/api/chats').set(auth);
    expect(meanwhile.status).toBe(503);
    expect(meanwhile.body.message).toBe(
      'The service is temporarily unavailable. Please try again in a moment.',
    );
    await new Promise((r) => setTimeout(r, Math.max(0, 6000 - (Date.now() - down))));
    await pg.start();
    const back = Date.now();

    const db = new Client({ connectionString: pg.url });
    await db.connect();
    try {
      let replies: Array<{ content: string }> = [];
      while (Date.now() - back < 20_000) {
        replies = (
          await db.query<{ content: string }>(
            `SELECT content FROM messages WHERE reply_to = $1 AND sender_type = 'agent'`,
            [messageId],
          )
        ).rows;
        if (replies.length) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(replies).toEqual([{ content: 'late answer to are you there?' }]);
      const { rows } = await db.query<{ reply_status: string }>(
        'SELECT reply_status FROM messages WHERE id = $1',
        [messageId],
      );
      expect(rows[0].reply_status).toBe('replied');
      process.stdout.write(
        `[faults] database down 6 s: 1 reply stored ${Date.now() - back} ms after it was back\n`,
      );
    } finally {
      await db.end();
    }
    expect(hook.requests.filter((r) => r.path === '/gate')).toHaveLength(1);
  }, 90_000);
});
