// Phase: lists at scale. CONFIG.lists.rows chats of the bench user in its company, as many members in
// that company and accounts on the platform, filled by one INSERT each; then each list as the API
// answers it against the same query in raw `pg` from this process (the SQL below mirrors the app's:
// keep it in step), interleaved request by request. The API's time includes HTTP, auth, mapping and
// JSON (compressed when the answer is large, as browsers ask for it).
import { CONFIG } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';

const { rows: ROWS, warmup, requests } = CONFIG.lists;

/** The lists: the API call, the raw query, and how many items the API's answer should hold. */
function lists({ userId, companyId, agentId }) {
  return [
    {
      name: 'chat list',
      path: '/api/chats?archived=false',
      // backend/src/chats/chats.repository.ts list() (capped at 1000, not paged)
      sql: `SELECT c.id, c.company_id, c.agent_id, a.is_default AS agent_is_default, c.title, c.is_archived,
              c.last_message, c.last_message_at, c.created_at, c.updated_at,
              EXISTS (SELECT 1 FROM messages p WHERE p.chat_id = c.id AND p.reply_status = 'pending') AS pending_reply
            FROM chats c JOIN agents a ON a.id = c.agent_id
            WHERE c.user_id = $1 AND c.company_id = $2 AND c.is_archived = $3
            ORDER BY c.updated_at DESC, c.id LIMIT 1000`,
      params: [userId, companyId, false],
      count: (body) => body.length,
      agentId,
    },
    {
      name: 'company members',
      path: '/api/company/members',
      // backend/src/company-admin/members.repository.ts list() (TypeORM find with the user relation; not paged)
      sql: `SELECT cu.id, cu.company_id, cu.user_id, cu.role, cu.invited_by, cu.created_at, p.id AS p_id, p.email,
              p.first_name, p.last_name, p.avatar_file_id
            FROM company_users cu LEFT JOIN profiles p ON p.id = cu.user_id
            WHERE cu.company_id = $1 ORDER BY cu.created_at ASC, cu.id ASC`,
      params: [companyId],
      count: (body) => body.length,
    },
    {
      name: 'platform users, first page',
      path: '/api/admin/users',
      // backend/src/platform-admin/users.repository.ts page() (keyset by email, 50 a page + 1)
      sql: `SELECT p.id, p.email, p.first_name, p.last_name, p.avatar_file_id, p.is_superadmin, p.disabled_at,
              p.last_login, p.created_at FROM profiles p ORDER BY p.email LIMIT $1`,
      params: [51],
      count: (body) => body.users.length,
    },
  ];
}

export const listsPhase = {
  key: 'lists',
  title: `Lists at scale: ${ROWS.toLocaleString('en')} chats, company members and platform users vs raw pg`,

  async measure({ api, db, userId, agent }, result) {
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
    for (const list of lists({ userId, companyId, agentId: agent.id })) {
      const viaApi = async () => {
        const t = performance.now();
        const body = await api.call('GET', list.path, undefined, 200);
        return { ms: performance.now() - t, count: list.count(body) };
      };
      const raw = async () => {
        const t = performance.now();
        const { rows } = await db.query(list.sql, list.params);
        return { ms: performance.now() - t, count: rows.length };
      };
      for (let i = 0; i < warmup; i++) {
        await viaApi();
        await raw();
      }
      const apiTimes = [];
      const rawTimes = [];
      let items = 0;
      for (let i = 0; i < requests; i++) {
        for (const run of i % 2 ? [raw, viaApi] : [viaApi, raw]) {
          const r = await run();
          (run === raw ? rawTimes : apiTimes).push(r.ms);
          if (run === viaApi) items = r.count;
        }
      }
      result[list.name] = { items, api: summarize(apiTimes), raw: summarize(rawTimes) };
    }
  },

  print(result) {
    console.log(`\nLists at scale: API / raw pg, ms (goal ≤ 1.5x; fill took ${result.fillMs} ms)`);
    const rows = [];
    for (const [name, r] of Object.entries(result)) {
      if (!r?.api) continue;
      for (const key of ['p50', 'p99']) {
        rows.push([
          `${name} (${r.items} items) ${key}`,
          fmt(r.raw[key]),
          fmt(r.api[key]),
          `${fmt(ratio(r.api[key], r.raw[key]))}x`,
        ]);
      }
    }
    console.log(table(['metric', 'raw pg', 'api', 'ratio'], rows));
  },
};
