// Does the Insights rollup upsert serialise a company's messages on one row? CLIENTS connections each
// run TRANSACTIONS transactions of one message-sized upsert (insights_add) for one company and agent,
// holding the row lock for HOLD_MS before committing (as a message's statement holds it until its
// commit), in two shapes: every client on its own chat (spread over the shards, as chats are), and
// every client on the same chat (one row: what an unsharded rollup would be). Prints the throughput of
// each. Usage: node bench/tools/insights-hot-row.mjs postgres://.../a-migrated-database
import pg from 'pg';

const url = process.argv[2];
if (!url) throw new Error('usage: insights-hot-row.mjs DATABASE_URL (a database with the migrations run)');
const CLIENTS = Number(process.env.CLIENTS) || 16;
const TRANSACTIONS = Number(process.env.TRANSACTIONS) || 100;
const HOLD_MS = Number(process.env.HOLD_MS ?? 2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const {
  rows: [company],
} = await admin.query(`INSERT INTO companies (name) VALUES ('hot row check') RETURNING id`);
const agent = '00000000-0000-4000-8000-000000000001';

async function run(chatOf) {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const started = performance.now();
  await Promise.all(
    clients.map(async (c, i) => {
      for (let t = 0; t < TRANSACTIONS; t++) {
        await c.query('BEGIN');
        await c.query(`SELECT insights_add($1, $2, now(), $3, 1, 0, 0, NULL, NULL, NULL, 0, 0)`, [
          company.id,
          agent,
          chatOf(i),
        ]);
        if (HOLD_MS) await sleep(HOLD_MS);
        await c.query('COMMIT');
      }
    }),
  );
  const ms = performance.now() - started;
  await Promise.all(clients.map((c) => c.end()));
  return Math.round((CLIENTS * TRANSACTIONS) / (ms / 1000));
}

const chats = Array.from(
  { length: CLIENTS },
  (_, i) => `00000000-0000-4000-8000-${String(i + 100).padStart(12, '0')}`,
);
const spread = await run((i) => chats[i]);
const oneRow = await run(() => chats[0]);
const { rows } = await admin.query(
  `SELECT count(*)::int AS rows, sum(messages)::int AS messages FROM insights_hourly WHERE company_id = $1`,
  [company.id],
);
await admin.query(`DELETE FROM companies WHERE id = $1`, [company.id]);
await admin.end();
console.log(
  `${CLIENTS} clients x ${TRANSACTIONS} transactions, lock held ${HOLD_MS} ms each: ` +
    `chats spread over the shards ${spread}/s, all on one row ${oneRow}/s ` +
    `(${rows[0].rows} rollup rows, ${rows[0].messages} counted)`,
);
