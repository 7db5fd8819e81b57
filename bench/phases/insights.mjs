// Phase: Company Admin → Insights at scale. A company gets over 1,000,000 messages (user messages and
// their replies, 1 in 20 failed, over 30 days, 10 agents, 2,000 chats) through generate_series SQL, with
// the rollup triggers off; its rollups are then built by the migration's backfill statement (timed: what
// an upgrade costs), and GET /api/company/insights is timed against the same question (per agent:
// messages, replies, failures, latency p50/p95, active users, chats) answered by a raw scan of messages,
// interleaved request by request. The backfill is the migration's (1764000000000-insights-rollups.ts),
// text for text but for the filter on the phase's chats: keep it in step.
import { getJson } from '../lib/clients.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';

const USER_MESSAGES = 527_000;
const AGENTS = 10;
const CHATS = 2_000;
const DAYS = 30;
const WARMUP = 3;
// BENCH_INSIGHTS_REQUESTS=50: more requests per question (steadier percentiles).
const REQUESTS = Number(process.env.BENCH_INSIGHTS_REQUESTS) || 15;
const TRIGGERS = ['insights_message_stored', 'insights_reply_failed', 'insights_rating'];

const FILL_SQL = `WITH agents AS (
   INSERT INTO agents (user_id, company_id, name, webhook)
   SELECT $1, $2, 'Insights agent ' || k, 'http://127.0.0.1:9/none' FROM generate_series(1, $5::int) AS k
   RETURNING id
 ), numbered AS (
   SELECT id, row_number() OVER () - 1 AS n FROM agents
 ), chats AS (
   INSERT INTO chats (user_id, company_id, agent_id, title, last_message, last_message_at, updated_at)
   SELECT $1, $2, a.id, 'insights chat ' || k, 'last', now(), now()
   FROM generate_series(0, $4::int - 1) AS k JOIN numbered a ON a.n = k % $5::int
   RETURNING id, split_part(title, ' ', 3)::int AS k
 )
 INSERT INTO messages (chat_id, sender_id, sender_type, content, reply_status, reply_failure, created_at)
 SELECT c.id, $1, 'user', 'q' || g,
   CASE WHEN g % 20 = 0 THEN 'failed' ELSE 'replied' END, CASE WHEN g % 20 = 0 THEN 'timeout' END,
   now() - (g * ($6::float8 * 86400 / $3::int)) * interval '1 second'
 FROM generate_series(1, $3::int) AS g JOIN chats c ON c.k = g % $4::int`;

/** A reply to each answered message, 50 ms to ~16 s after it (a spread the latency buckets can show). */
const REPLIES_SQL = `INSERT INTO messages (chat_id, sender_id, sender_type, content, reply_to, feedback, created_at)
 SELECT m.chat_id, c.agent_id, 'agent', 'a', m.id,
   CASE WHEN m.seq % 7 = 0 THEN 'like' WHEN m.seq % 31 = 0 THEN 'dislike' END,
   m.created_at + (50 + (hashtext(m.id::text) & 16383)) * interval '1 millisecond'
 FROM messages m JOIN chats c ON c.id = m.chat_id
 WHERE c.company_id = $1 AND c.title LIKE 'insights chat %' AND m.sender_type = 'user' AND m.reply_status = 'replied'`;

const BOUNDS = `'{0,250,500,1000,2000,3000,5000,8000,13000,20000,30000,60000,120000,300000}'::int[]`;
const BUCKETS = Array.from(
  { length: 14 },
  (_, i) => `count(*) FILTER (WHERE width_bucket(l.ms, ${BOUNDS}) = ${i + 1})`,
).join(',\n   ');
const PHASE_CHATS = `c.company_id = $1 AND c.title LIKE 'insights chat %'`;
const BACKFILL_SQL = [
  `INSERT INTO insights_hourly AS r (company_id, hour, agent_id, shard, messages, replies,
   failed_other, latency_count, latency_sum_ms, latency_buckets, first_chunk_buckets, thumbs_up, thumbs_down)
 SELECT c.company_id, date_trunc('hour', m.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', c.agent_id,
   0,
   count(*) FILTER (WHERE m.reply_to IS NULL AND m.reply_status IS NOT NULL)::int,
   count(*) FILTER (WHERE m.reply_to IS NOT NULL)::int,
   count(*) FILTER (WHERE m.reply_status = 'failed')::int,
   count(l.ms)::int, coalesce(sum(l.ms), 0)::bigint,
   ARRAY[${BUCKETS}]::int[],
   array_fill(0, ARRAY[14]),
   count(*) FILTER (WHERE m.sender_type = 'agent' AND m.feedback = 'like')::int,
   count(*) FILTER (WHERE m.sender_type = 'agent' AND m.feedback = 'dislike')::int
 FROM messages m JOIN chats c ON c.id = m.chat_id
 LEFT JOIN messages asked ON asked.id = m.reply_to
 CROSS JOIN LATERAL (SELECT floor(extract(epoch FROM m.created_at - asked.created_at) * 1000)::bigint AS ms) l
 WHERE (m.reply_status IS NOT NULL OR m.reply_to IS NOT NULL OR (m.sender_type = 'agent' AND m.feedback IS NOT NULL))
   AND ${PHASE_CHATS}
 GROUP BY 1, 2, 3`,
  `INSERT INTO insights_daily_chats (company_id, day, agent_id, chat_id, user_id)
 SELECT DISTINCT c.company_id, (m.created_at AT TIME ZONE 'UTC')::date, c.agent_id, m.chat_id, c.user_id
 FROM messages m JOIN chats c ON c.id = m.chat_id
 WHERE m.reply_to IS NULL AND m.reply_status IS NOT NULL AND ${PHASE_CHATS}`,
];

/** The same question from the messages themselves: per agent over [from, to). */
const RAW_SQL = `SELECT c.agent_id,
   count(*) FILTER (WHERE m.reply_to IS NULL AND m.reply_status IS NOT NULL)::int AS messages,
   count(*) FILTER (WHERE m.reply_to IS NOT NULL)::int AS replies,
   count(*) FILTER (WHERE m.reply_status = 'failed')::int AS failed,
   percentile_cont(0.5) WITHIN GROUP (ORDER BY m.created_at - asked.created_at) FILTER (WHERE asked.id IS NOT NULL) AS p50,
   percentile_cont(0.95) WITHIN GROUP (ORDER BY m.created_at - asked.created_at) FILTER (WHERE asked.id IS NOT NULL) AS p95,
   count(DISTINCT c.user_id) FILTER (WHERE m.reply_to IS NULL) AS users,
   count(DISTINCT m.chat_id) FILTER (WHERE m.reply_to IS NULL) AS chats
 FROM messages m JOIN chats c ON c.id = m.chat_id LEFT JOIN messages asked ON asked.id = m.reply_to
 WHERE c.company_id = $1 AND m.created_at >= $2 AND m.created_at < $3
 GROUP BY c.agent_id`;

export const insightsPhase = {
  key: 'insights',
  title: `Insights at scale: over 1,000,000 messages, GET /api/company/insights (rollups) vs a raw scan of messages`,

  async measure({ app, api, db, userId }, result) {
    const companyId = api.session.companyId;
    const count = async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM messages m JOIN chats c ON c.id = m.chat_id WHERE c.company_id = $1`,
          [companyId],
        )
      ).rows[0].n;
    let started = performance.now();
    for (const trigger of TRIGGERS) await db.query(`ALTER TABLE messages DISABLE TRIGGER ${trigger}`);
    try {
      await db.query(FILL_SQL, [userId, companyId, USER_MESSAGES, CHATS, AGENTS, DAYS]);
      await db.query(REPLIES_SQL, [companyId]);
    } finally {
      for (const trigger of TRIGGERS) await db.query(`ALTER TABLE messages ENABLE TRIGGER ${trigger}`);
    }
    result.fillMs = Math.round(performance.now() - started);
    result.messages = await count();
    started = performance.now();
    for (const sql of BACKFILL_SQL) await db.query(sql, [companyId]);
    result.backfillMs = Math.round(performance.now() - started);
    await db.query('ANALYZE messages');
    await db.query('ANALYZE chats');
    await db.query('ANALYZE insights_hourly');
    await db.query('ANALYZE insights_daily_chats');
    result.rollupRows = (
      await db.query(`SELECT count(*)::int AS n FROM insights_hourly WHERE company_id = $1`, [companyId])
    ).rows[0].n;

    const questions = [
      { name: 'last 30 days, per day', days: 30 },
      { name: 'last 7 days, per day', days: 7 },
      { name: 'last 24 hours, per hour', days: 1 },
    ];
    for (const question of questions) {
      const to = new Date();
      const from = new Date(to.getTime() - question.days * 86_400_000);
      const path = `/api/company/insights?from=${from.toISOString()}&to=${to.toISOString()}`;
      // The raw scan over the same whole hours the API counts.
      const hour = 3_600_000;
      const rawFrom = new Date(Math.floor(from.getTime() / hour) * hour);
      const rawTo = new Date(Math.ceil(to.getTime() / hour) * hour);
      const systems = {
        api: async () => (await getJson(app.base, path, api.session.token, companyId)).total.messages,
        raw: async () =>
          (await db.query(RAW_SQL, [companyId, rawFrom, rawTo])).rows.reduce((n, r) => n + r.messages, 0),
      };
      const names = Object.keys(systems);
      for (let i = 0; i < WARMUP; i++) for (const name of names) await systems[name]();
      const times = { api: [], raw: [] };
      const answers = {};
      for (let i = 0; i < REQUESTS; i++) {
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length];
          const t = performance.now();
          answers[name] = await systems[name]();
          times[name].push(performance.now() - t);
        }
      }
      if (answers.api !== answers.raw)
        throw new Error(`${question.name}: the API counted ${answers.api} messages, the scan ${answers.raw}`);
      result[question.name] = { messages: answers.api, api: summarize(times.api), raw: summarize(times.raw) };
    }
  },

  print(result) {
    console.log(
      `\nInsights at ${result.messages?.toLocaleString('en')} messages of one company, ms (fill ${result.fillMs} ms; ` +
        `rollups built by the migration's backfill in ${result.backfillMs} ms, ${result.rollupRows} hourly rows)`,
    );
    const rows = [];
    for (const [name, r] of Object.entries(result)) {
      if (!r?.api) continue;
      for (const key of ['p50', 'p90']) {
        rows.push([
          `${name} (${r.messages.toLocaleString('en')} msgs) ${key}`,
          fmt(r.raw[key]),
          fmt(r.api[key]),
          `${fmt(ratio(r.raw[key], r.api[key]))}x`,
        ]);
      }
    }
    console.log(table(['question', 'raw scan', 'api (rollups)', 'raw/api'], rows));
  },
};
