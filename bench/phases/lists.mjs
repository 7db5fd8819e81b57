// Phase: lists at scale. CONFIG.lists.rows chats of the bench user in its company, as many
// members in that company and accounts on the platform, filled by one INSERT each; then each list page
// three ways, interleaved request by request (the order rotates):
//   - api: the app's route (HTTP, auth: the token and the session row, validation, the query, mapping,
//     JSON, compression as the app does it for a browser);
//   - same-path: bench/lists-same-path-server.mjs, the same route by hand (node http, jsonwebtoken, one
//     session query, the same SQL, the same mapping, JSON and compression): the fair target, goal ≤ 1.5x;
//   - raw pg: the same SQL returning the same rows from this process, nothing else (the floor).
// The SQL below is the app's, text for text (backend/src/chats/chats.repository.ts page(),
// company-admin/members.repository.ts page(), platform-admin/users.repository.ts page()): keep it in step.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { BENCH_DIR, APP_POOL_SIZE, CONFIG } from '../lib/config.mjs';
import { onCleanup } from '../lib/lifecycle.mjs';
import { getJson } from '../lib/clients.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';
import { delay, withTimeout } from '../lib/util.mjs';

const { rows: ROWS, warmup } = CONFIG.lists;
// BENCH_LISTS_REQUESTS=300: more requests per list (steadier percentiles, or a profile of the lists alone).
const requests = Number(process.env.BENCH_LISTS_REQUESTS) || CONFIG.lists.requests;
const PAGE = 50;

const KEYSET_AT = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const chatSql = (
  after,
) => `SELECT c.id, c.company_id, c.agent_id, a.is_default AS agent_is_default, c.title, c.is_archived,
  c.last_message, c.last_message_at, c.created_at, c.updated_at, EXISTS (SELECT 1 FROM messages p WHERE p.chat_id = c.id AND p.reply_status = 'pending') AS pending_reply, ${KEYSET_AT('c.updated_at')} AS keyset_at
       FROM chats c JOIN agents a ON a.id = c.agent_id
       WHERE c.user_id = $1 AND c.company_id = $2 AND c.is_archived = $3 ${after ? 'AND (c.updated_at, c.id) < ($5::timestamptz, $6::uuid)' : ''}
       ORDER BY c.updated_at DESC, c.id DESC LIMIT $4`;
const memberSql = (search, after) => {
  const where = ['cu.company_id = $1'];
  if (search) where.push(`(p.email LIKE $3 OR lower(p.first_name || ' ' || p.last_name) LIKE $3)`);
  const n = search ? 4 : 3;
  if (after) where.push(`(cu.created_at, cu.id) > ($${n}::timestamptz, $${n + 1}::uuid)`);
  return `SELECT cu.id, cu.user_id, cu.role, cu.created_at, ${KEYSET_AT('cu.created_at')} AS keyset_at,
         p.email, p.first_name, p.last_name, p.avatar_file_id
       FROM company_users cu JOIN profiles p ON p.id = cu.user_id
       WHERE ${where.join(' AND ')}
       ORDER BY cu.created_at, cu.id LIMIT $2`;
};
const USERS_SQL = `SELECT p.id, p.email, p.first_name, p.last_name, p.avatar_file_id, p.is_superadmin, p.disabled_at,
  p.last_login, p.created_at FROM profiles p
       
       ORDER BY p.email LIMIT $1`;
const SQL = {
  chats: chatSql(false),
  chatsAfter: chatSql(true),
  members: memberSql(false, false),
  membersSearch: memberSql(true, false),
  membersAfter: memberSql(false, true),
  membersSearchAfter: memberSql(true, true),
  users: USERS_SQL,
};
const cursorOf = (at, id) => Buffer.from(`${at} ${id}`, 'utf8').toString('base64url');

/** The list pages: the route, the raw query, and how many items the answer should hold. */
function lists({ userId, companyId, deep }) {
  return [
    {
      name: 'chat list, first page',
      path: `/api/chats?archived=false&limit=${PAGE}`,
      sql: SQL.chats,
      params: [userId, companyId, false, PAGE + 1],
      count: (body) => body.chats.length,
    },
    {
      name: 'chat list, page after 5,000',
      path: `/api/chats?archived=false&limit=${PAGE}&cursor=${cursorOf(deep.at, deep.id)}`,
      sql: SQL.chatsAfter,
      params: [userId, companyId, false, PAGE + 1, deep.at, deep.id],
      count: (body) => body.chats.length,
    },
    {
      name: 'company members, first page',
      path: `/api/company/members?limit=${PAGE}`,
      sql: SQL.members,
      params: [companyId, PAGE + 1],
      count: (body) => body.members.length,
    },
    {
      name: 'company members, search',
      path: `/api/company/members?limit=${PAGE}&search=number%2012`,
      sql: SQL.membersSearch,
      params: [companyId, PAGE + 1, '%number 12%'],
      count: (body) => body.members.length,
    },
    {
      name: 'platform users, first page',
      path: `/api/admin/users?limit=${PAGE}`,
      sql: SQL.users,
      params: [PAGE + 1],
      count: (body) => body.users.length,
    },
  ];
}

/** The same-path server, a child process like the app; resolves once it has its SQL. */
async function startSamePath(databaseUrl, userId, sessionId) {
  const child = fork(join(BENCH_DIR, 'lists-same-path-server.mjs'), [], {
    env: {
      ...process.env,
      LISTS_DATABASE_URL: databaseUrl,
      LISTS_USER_ID: userId,
      LISTS_SESSION_ID: sessionId,
      LISTS_POOL_SIZE: String(APP_POOL_SIZE),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  onCleanup('lists same-path server', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
    if (!stopped) child.kill('SIGKILL');
  });
  const next = () =>
    withTimeout(
      new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`lists same-path server exited (code ${code})`)));
      }),
      15_000,
      'lists same-path server',
    );
  const { port, token } = await next();
  child.send({ lists: SQL });
  await next();
  return { base: `http://127.0.0.1:${port}`, token, stop: () => child.kill('SIGTERM') };
}

export const listsPhase = {
  key: 'lists',
  title: `Lists at scale: ${ROWS.toLocaleString('en')} chats, company members and platform users, a page each, vs the same route by hand and raw pg`,

  async measure({ app, api, db, userId, agent }, result) {
    const companyId = api.session.companyId;
    const started = performance.now();
    await db.query(
      `INSERT INTO chats (user_id, company_id, agent_id, title, last_message, last_message_at, updated_at)
       SELECT $1, $2, $3, 'list chat ' || g, 'last message ' || g, now() - g * interval '1 second',
         now() - g * interval '1 second'
       FROM generate_series(1, $4::int) AS g`,
      [userId, companyId, agent.id, ROWS],
    );
    await db.query(
      `WITH accounts AS (
         INSERT INTO profiles (email, first_name, last_name)
         SELECT 'member' || g || '@bench.example', 'Member', 'Number ' || g FROM generate_series(1, $2::int) AS g
         RETURNING id)
       INSERT INTO company_users (company_id, user_id, role) SELECT $1, id, 'member' FROM accounts`,
      [companyId, ROWS],
    );
    // Platform Admin → Users needs a superadmin (read fresh on every request by the access-token guard).
    await db.query('UPDATE profiles SET is_superadmin = true WHERE id = $1', [userId]);
    await db.query('ANALYZE');
    result.fillMs = Math.round(performance.now() - started);
    // The keyset of the 5,000th chat: the cursor the 100th page of 50 would carry.
    const {
      rows: [deep],
    } = await db.query(
      `SELECT ${KEYSET_AT('c.updated_at')} AS at, c.id FROM chats c
       WHERE c.user_id = $1 AND c.company_id = $2 AND NOT c.is_archived
       ORDER BY c.updated_at DESC, c.id DESC OFFSET 4999 LIMIT 1`,
      [userId, companyId],
    );
    const { sid } = jwt.decode(api.session.token);
    const samePath = await startSamePath(app.databaseUrl, userId, sid);

    for (const list of lists({ userId, companyId, deep })) {
      const timed = (run) => async () => {
        const t = performance.now();
        const count = await run();
        return { ms: performance.now() - t, count };
      };
      const systems = {
        api: timed(async () => list.count(await getJson(app.base, list.path, api.session.token, companyId))),
        samePath: timed(async () =>
          list.count(await getJson(samePath.base, list.path, samePath.token, companyId)),
        ),
        raw: timed(async () => (await db.query(list.sql, list.params)).rows.length),
      };
      const names = Object.keys(systems);
      for (let i = 0; i < warmup; i++) for (const name of names) await systems[name]();
      const times = { api: [], samePath: [], raw: [] };
      const items = {};
      for (let i = 0; i < requests; i++) {
        // A B C, B C A, C A B, ...: load from other processes lands on all alike.
        for (let k = 0; k < names.length; k++) {
          const name = names[(i + k) % names.length];
          const r = await systems[name]();
          times[name].push(r.ms);
          items[name] = r.count;
        }
      }
      if (items.api !== Math.min(items.raw, PAGE) || items.samePath !== items.api)
        throw new Error(`${list.name}: api ${items.api}, same-path ${items.samePath}, raw ${items.raw} rows`);
      result[list.name] = {
        items: items.api,
        api: summarize(times.api),
        samePath: summarize(times.samePath),
        raw: summarize(times.raw),
      };
    }
    samePath.stop();
  },

  print(result) {
    console.log(
      `\nLists at scale: a page of ${PAGE} at ${ROWS.toLocaleString('en')} rows, ms (goal: api / same-path ≤ 1.5x; fill took ${result.fillMs} ms)`,
    );
    const rows = [];
    for (const [name, r] of Object.entries(result)) {
      if (!r?.api) continue;
      for (const key of ['p50', 'p99']) {
        rows.push([
          `${name} (${r.items}) ${key}`,
          fmt(r.raw[key]),
          fmt(r.samePath[key]),
          fmt(r.api[key]),
          `${fmt(ratio(r.api[key], r.samePath[key]))}x`,
          `${fmt(ratio(r.api[key], r.raw[key]))}x`,
        ]);
      }
    }
    console.log(table(['metric', 'raw pg', 'same-path', 'api', 'api/same-path', 'api/raw'], rows));
  },
};
