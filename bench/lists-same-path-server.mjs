// The lists' same-path baseline: each list route the bench measures, written
// by hand with no framework, on the app's own tables in the app's own database. Per request exactly the
// work the API does: verify the access token (jsonwebtoken, HS256, audience, issuer, expiry) and check
// the session row with the account and the company membership (one query, as the app's guard does);
// decode the cursor; run the list's SQL (the same text as bench/phases/lists.mjs sends raw, which
// mirrors the app's repositories); map the rows to the API's views; JSON; compressed as the app's
// `compression` middleware does (brotli quality 4, else gzip, when the body is over 2048 bytes and the
// client accepts it).
// Runs as a child of bench/run.mjs (its own process, like the app), told its lists over IPC.
import { createSecretKey } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import jwt from 'jsonwebtoken';
import pg from 'pg';

const { LISTS_DATABASE_URL: databaseUrl, LISTS_USER_ID: userId, LISTS_SESSION_ID: sessionId } = process.env;
if (!databaseUrl || !userId || !sessionId || !process.send) {
  console.error(
    'lists-same-path-server.mjs is started by bench/phases/lists.mjs (needs its environment and IPC)',
  );
  process.exit(2);
}

const AUDIENCE = 'switchboard-api';
const ISSUER = 'switchboard';
const key = createSecretKey(Buffer.from(`lists-${process.pid}-${Date.now()}`, 'utf8'));
const token = jwt.sign({ sid: sessionId }, key, {
  subject: userId,
  algorithm: 'HS256',
  audience: AUDIENCE,
  issuer: ISSUER,
  expiresIn: 15 * 60,
});
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.LISTS_POOL_SIZE) || 20 });

// backend/src/auth/sessions.service.ts ACTIVE_USER_SQL
const SESSION_SQL = `SELECT p.id, p.is_superadmin, cu.role FROM sessions s
  JOIN profiles p ON p.id = s.user_id
  LEFT JOIN company_users cu ON cu.user_id = p.id AND cu.company_id = $3
  WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()
    AND p.disabled_at IS NULL`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEYSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z ([0-9a-f-]{36})$/;

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function verify(header) {
  const raw = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  try {
    const claims = raw
      ? jwt.verify(raw, key, { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER })
      : null;
    return claims && typeof claims.sub === 'string' && typeof claims.sid === 'string' ? claims : null;
  } catch {
    return null;
  }
}

function decodeKeyset(cursor) {
  if (!cursor) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = KEYSET.exec(text);
  if (!match || Buffer.from(text, 'utf8').toString('base64url') !== cursor)
    throw new HttpError(400, 'Invalid cursor');
  return { at: text.slice(0, 27), id: match[2] };
}
const encodeKeyset = (at, id) => Buffer.from(`${at} ${id}`, 'utf8').toString('base64url');
const likePattern = (term) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const limitOf = (value, fallback) => {
  const n = value === null ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new HttpError(400, 'limit must be between 1 and 200');
  return n;
};

/** The list routes: each reads its query, runs the repository's SQL and maps rows as the app does. */
let lists = {};
const routes = {
  '/api/chats': async (q, scope) => {
    const limit = limitOf(q.get('limit'), 50);
    const after = decodeKeyset(q.get('cursor'));
    const archived = q.get('archived') === 'true';
    const { rows } = await pool.query(lists.chats(!!after), [
      scope.userId,
      scope.companyId,
      archived,
      limit + 1,
      ...(after ? [after.at, after.id] : []),
    ]);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      chats: page.map((r) => ({
        id: r.id,
        companyId: r.company_id,
        agentId: r.agent_is_default ? 'default-agent' : r.agent_id,
        title: r.title,
        isArchived: r.is_archived,
        lastMessage: r.last_message,
        lastMessageAt: r.last_message_at ? r.last_message_at.toISOString() : null,
        pendingReply: r.pending_reply,
        createdAt: r.created_at.toISOString(),
        updatedAt: r.updated_at.toISOString(),
      })),
      nextCursor: rows.length > limit && last ? encodeKeyset(last.keyset_at, last.id) : null,
    };
  },
  '/api/company/members': async (q, scope) => {
    if (scope.role !== 'owner' && scope.role !== 'admin') throw new HttpError(403, 'Forbidden');
    const limit = limitOf(q.get('limit'), 50);
    const after = decodeKeyset(q.get('cursor'));
    const search = (q.get('search') ?? '').trim();
    const { rows } = await pool.query(lists.members(!!search, !!after), [
      scope.companyId,
      limit + 1,
      ...(search ? [likePattern(search)] : []),
      ...(after ? [after.at, after.id] : []),
    ]);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      members: page.map((r) => ({
        userId: r.user_id,
        name: [r.first_name, r.last_name].filter(Boolean).join(' ').trim() || 'Unnamed User',
        email: r.email,
        avatar: r.avatar_file_id ? `/api/files/${r.avatar_file_id}` : '/placeholder.svg',
        role: r.role,
        joinedAt: r.created_at.toISOString(),
      })),
      nextCursor: rows.length > limit && last ? encodeKeyset(last.keyset_at, last.id) : null,
    };
  },
  '/api/admin/users': async (q, scope) => {
    if (!scope.isSuperadmin) throw new HttpError(403, 'Forbidden');
    const limit = limitOf(q.get('limit'), 50);
    const { rows } = await pool.query(lists.users, [limit + 1]);
    const page = rows.slice(0, limit);
    return {
      users: page.map((r) => ({
        id: r.id,
        name: [r.first_name, r.last_name].filter(Boolean).join(' ').trim(),
        email: r.email,
        avatar: r.avatar_file_id ? `/api/files/${r.avatar_file_id}` : '/placeholder.svg',
        isSuperadmin: r.is_superadmin,
        disabled: r.disabled_at !== null,
        lastLogin: r.last_login ? r.last_login.toISOString() : null,
        createdAt: r.created_at.toISOString(),
      })),
      nextCursor: rows.length > limit ? Buffer.from(page.at(-1).email, 'utf8').toString('base64url') : null,
    };
  },
};

function send(req, res, status, body) {
  const text = JSON.stringify(body);
  const headers = { 'content-type': 'application/json; charset=utf-8' };
  const accepts = String(req.headers['accept-encoding'] ?? '');
  let payload = Buffer.from(text, 'utf8');
  if (payload.length > 2048 && /\bbr\b/.test(accepts)) {
    payload = zlib.brotliCompressSync(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    headers['content-encoding'] = 'br';
  } else if (payload.length > 2048 && /\bgzip\b/.test(accepts)) {
    payload = zlib.gzipSync(payload);
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = payload.length;
  res.writeHead(status, headers);
  res.end(payload);
}

async function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const route = req.method === 'GET' ? routes[url.pathname] : undefined;
  if (!route) throw new HttpError(404, 'Not found');
  const claims = verify(req.headers.authorization);
  if (!claims) throw new HttpError(401, 'Authentication required');
  const header = String(req.headers['x-company-id'] ?? '').toLowerCase();
  const companyId = UUID.test(header) ? header : null;
  const { rows } = await pool.query(SESSION_SQL, [claims.sid, claims.sub, companyId]);
  if (!rows[0]) throw new HttpError(401, 'Your session has ended. Please sign in again.');
  if (url.pathname !== '/api/admin/users' && !rows[0].role) throw new HttpError(404, 'Company not found');
  const scope = { userId: claims.sub, companyId, role: rows[0].role, isSuperadmin: rows[0].is_superadmin };
  send(req, res, 200, await route(url.searchParams, scope));
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error) => {
    const status = error instanceof HttpError ? error.status : 500;
    if (status === 500) console.error('lists same-path:', error);
    send(req, res, status, { message: error.message });
  });
});

process.on('message', (message) => {
  // The SQL comes from the phase (the one text it also runs raw): functions are sent as sources.
  if (message?.lists) {
    const { chats, chatsAfter, members, membersSearch, membersAfter, membersSearchAfter, users } =
      message.lists;
    lists = {
      chats: (after) => (after ? chatsAfter : chats),
      members: (search, after) =>
        search ? (after ? membersSearchAfter : membersSearch) : after ? membersAfter : members,
      users,
    };
    process.send({ ready: true });
  }
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, token }));
