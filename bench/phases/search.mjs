// Phase: full-text search at scale. 100,000 messages of the bench user in 100 chats (one
// INSERT ... SELECT generate_series), with words of known frequency; then GET /api/search for each query
// against the same SQL run from this process through `pg` (the floor: the query alone), interleaved
// request by request (the order alternates). The SQL is the app's own, loaded from the built app
// (search/search-sql.js), so the floor is the same query text.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getJson } from '../lib/clients.mjs';
import { APP_DIST } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';

const MESSAGES = 100_000;
const CHATS = 100;
const WARMUP = 5;
// BENCH_SEARCH_REQUESTS=200: more requests per query (steadier percentiles).
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS) || 30;
const PAGE = 20;
// Loaded when the phase runs: the app is built by then.
const searchSql = () => createRequire(import.meta.url)(join(APP_DIST, 'search', 'search-sql.js')).SEARCH_SQL;

/**
 * Message g (1..100,000) of chat g % 100: 'rare' words in 10 messages, 'ferry' in 1 of 20, 'harbour'
 * in 1 of 4, 'message' in all; the rest varies so that snippets and ranks differ.
 */
const FILL_SQL = `WITH chats AS (
   INSERT INTO chats (user_id, company_id, agent_id, title, last_message, last_message_at, updated_at)
   SELECT $1, $2, $3, 'search chat ' || k, 'last', now(), now() FROM generate_series(0, $5::int - 1) AS k
   RETURNING id, split_part(title, ' ', 3)::int AS k
 )
 INSERT INTO messages (chat_id, sender_id, sender_type, content, created_at)
 SELECT c.id, CASE WHEN g % 2 = 0 THEN $1 ELSE $3 END, CASE WHEN g % 2 = 0 THEN 'user' ELSE 'agent' END,
   'message ' || g || ' about the ' ||
   (ARRAY['weather','tides','lighthouse','market','train','bakery','museum','garden'])[1 + g % 8] ||
   CASE WHEN g % 4 = 0 THEN ' near the harbour' ELSE '' END ||
   CASE WHEN g % 20 = 0 THEN ' and the morning ferry to the island' ELSE '' END ||
   CASE WHEN g % 10000 = 7 THEN ' remember the codeword zephyrine' ELSE '' END ||
   ', with some more words to make it a sentence of ordinary length for a chat message',
   now() - g * interval '1 minute'
 FROM generate_series(1, $4::int) AS g JOIN chats c ON c.k = g % $5::int`;

export const searchPhase = {
  key: 'search',
  title: `Search at scale: ${MESSAGES.toLocaleString('en')} messages, GET /api/search vs the same SQL through raw pg`,

  async measure({ app, api, db, userId, agent }, result) {
    const SEARCH_SQL = searchSql();
    const companyId = api.session.companyId;
    const started = performance.now();
    await db.query(FILL_SQL, [userId, companyId, agent.id, MESSAGES, CHATS]);
    await db.query('ANALYZE messages');
    await db.query('ANALYZE chats');
    result.fillMs = Math.round(performance.now() - started);
    const { rows: plan } = await db.query(`EXPLAIN ${SEARCH_SQL}`, [
      'zephyrine',
      userId,
      companyId,
      new Date(),
      null,
      null,
      PAGE + 1,
    ]);
    result.rareWordUsesGinIndex = plan.some((r) => /IDX_messages_search/.test(r['QUERY PLAN']));

    // The second page of 'ferry': the cursor the API gave for the first.
    const first = await getJson(app.base, `/api/search?q=ferry`, api.session.token, companyId);
    const cursor = first.nextCursor;
    const [asOf, score, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));

    const queries = [
      { name: 'rare word (10 hits)', q: 'zephyrine', hits: 10 },
      { name: 'ferry (5,000 hits)', q: 'ferry', hits: 5000 },
      { name: 'ferry, page 2', q: 'ferry', cursor: { asOf, score, seq }, hits: 5000 },
      { name: 'harbour ferry (5,000, AND)', q: 'harbour ferry', hits: 5000 },
      { name: 'harbour (25,000 hits)', q: 'harbour', hits: 25_000 },
      { name: 'message (all 100,000)', q: 'message', hits: 100_000 },
    ];
    for (const query of queries) {
      const path = `/api/search?q=${encodeURIComponent(query.q)}${
        query.cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      }`;
      const params = () => [
        query.q,
        userId,
        companyId,
        query.cursor ? new Date(query.cursor.asOf) : new Date(),
        query.cursor?.score ?? null,
        query.cursor?.seq ?? null,
        PAGE + 1,
      ];
      const systems = {
        api: async () => (await getJson(app.base, path, api.session.token, companyId)).results.length,
        raw: async () => Math.min((await db.query(SEARCH_SQL, params())).rows.length, PAGE),
      };
      const names = Object.keys(systems);
      for (let i = 0; i < WARMUP; i++) for (const name of names) await systems[name]();
      const times = { api: [], raw: [] };
      const items = {};
      for (let i = 0; i < REQUESTS; i++) {
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length];
          const t = performance.now();
          items[name] = await systems[name]();
          times[name].push(performance.now() - t);
        }
      }
      const expected = Math.min(PAGE, query.hits);
      if (items.api !== expected || items.raw !== expected)
        throw new Error(`${query.name}: api ${items.api}, raw ${items.raw} results, expected ${expected}`);
      result[query.name] = { items: items.api, api: summarize(times.api), raw: summarize(times.raw) };
    }
  },

  print(result) {
    console.log(
      `\nSearch at ${MESSAGES.toLocaleString('en')} messages: a page of ${PAGE}, ms (fill took ${result.fillMs} ms; ` +
        `rare word planned on the GIN index: ${result.rareWordUsesGinIndex ? 'yes' : 'NO'})`,
    );
    const rows = [];
    for (const [name, r] of Object.entries(result)) {
      if (!r?.api) continue;
      for (const key of ['p50', 'p99']) {
        rows.push([
          `${name} ${key}`,
          fmt(r.raw[key]),
          fmt(r.api[key]),
          `${fmt(ratio(r.api[key], r.raw[key]))}x`,
        ]);
      }
    }
    console.log(table(['query', 'raw pg', 'api', 'api/raw'], rows));
  },
};
