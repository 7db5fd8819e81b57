// Talking to the app (and the baseline): REST calls, Socket.IO connections, the bench's own database
// connection, and the user, company and agent every phase works with.
import pg from 'pg';
import { io } from 'socket.io-client';
import { CONFIG } from './config.mjs';
import { diagnostics, onCleanup } from './lifecycle.mjs';
import { now, withTimeout } from './util.mjs';

export function apiClient(base) {
  const session = { token: null, companyId: null };
  async function call(method, path, body, expectStatus) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (session.token) headers.authorization = `Bearer ${session.token}`;
    if (session.companyId) headers['x-company-id'] = session.companyId;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
    });
    const text = await res.text();
    if (expectStatus && res.status !== expectStatus) {
      throw new Error(
        `${method} ${path} answered ${res.status} (expected ${expectStatus}): ${text.slice(0, 300)}`,
      );
    }
    return text ? JSON.parse(text) : null;
  }
  return { session, call };
}

/** GET `path` as the session (token, company) and its JSON body; anything but 200 throws. */
export async function getJson(base, path, token, companyId) {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-company-id': companyId, accept: 'application/json' },
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

export function connectSocket(url, auth) {
  const socket = io(url, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 10_000,
  });
  onCleanup('socket', () => socket.close());
  return withTimeout(
    new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (error) =>
        reject(new Error(`socket connect to ${url}: ${error.message}`)),
      );
    }),
    12_000,
    `socket connect to ${url}`,
  );
}

/**
 * Routes agent replies to whoever waits for them, one waiter per chat (a chat has at most one message
 * in flight: the app answers 409 otherwise). The arrival time is taken in the event handler itself.
 */
export function replyRouter(socket, failureEvents) {
  const waiters = new Map();
  const settle = (chatId, outcome) => {
    const waiter = waiters.get(chatId);
    if (!waiter) return;
    waiters.delete(chatId);
    clearTimeout(waiter.timer);
    outcome(waiter);
  };
  socket.on('message.created', (payload) => {
    if (payload?.message?.senderType !== 'agent') return;
    const at = now();
    settle(payload.chatId, (w) => w.resolve(at));
  });
  for (const event of failureEvents) {
    socket.on(event, (payload) =>
      settle(payload?.chatId, (w) => w.reject(new Error(`${event}: ${payload?.reason}`))),
    );
  }
  return {
    wait(chatId, timeoutMs) {
      if (waiters.has(chatId)) throw new Error(`already waiting for a reply in chat ${chatId}`);
      const reply = new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(chatId);
          reject(new Error(`no agent reply within ${timeoutMs} ms in chat ${chatId}`));
        }, timeoutMs);
        waiters.set(chatId, { resolve, reject, timer });
      });
      // Awaited only once the send itself is done: until then a rejection is not "unhandled".
      reply.catch(() => undefined);
      return reply;
    },
    cancel(chatId) {
      settle(chatId, (w) => w.reject(new Error('cancelled')));
    },
  };
}

/**
 * Through the public API only: registers a user (and with it a company), creates an agent on the
 * webhook. `newChat(title)` opens a chat with that agent and returns its id.
 */
export async function signUp(base, webhookUrl, email = 'bench@example.com') {
  const api = apiClient(base);
  const registered = await api.call(
    'POST',
    '/api/auth/register',
    {
      email,
      password: 'bench-password-1',
      fullName: 'Bench User',
      companyName: 'Bench Co',
    },
    201,
  );
  api.session.token = registered.accessToken;
  const me = await api.call('GET', '/api/me', undefined, 200);
  api.session.companyId = me.companies[0].id;
  const userId = me.user.id;
  const agent = await api.call('POST', '/api/agents', { name: 'Bench agent', webhook: webhookUrl }, 201);
  const newChat = async (title) =>
    (await api.call('POST', '/api/chats', { agentId: agent.id, title }, 201)).id;
  return { api, userId, agent, newChat };
}

/**
 * The bench's own connection to the app's database (to fill chats, read plans, host the baseline's
 * table); from now on a failure report also shows what the app's connections were doing.
 */
export async function openDatabase(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  onCleanup('pg client', () => db.end());
  diagnostics.describeDatabase = async () => {
    const { rows } = await db.query(
      `SELECT state, wait_event_type, wait_event, count(*)::int AS connections,
              round(max(extract(epoch FROM now() - state_change)))::int AS longest_s, min(left(query, 90)) AS query
       FROM pg_stat_activity WHERE datname = 'switchboard' AND pid <> pg_backend_pid()
       GROUP BY 1, 2, 3 ORDER BY 4 DESC`,
    );
    return rows.map((r) => ({ ...r, query: r.query.replace(/\s+/g, ' ') }));
  };
  return db;
}
