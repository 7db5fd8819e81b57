// The same-path baseline: Switchboard's message path written by hand, with no framework, on the app's own
// tables in the app's own database, as tight as an independent one would write it: one query
// for the token's session and the membership, one statement for each write (CTEs), named prepared
// statements, a keep-alive agent. Per message:
//   POST /api/chats/:id/messages → verify the access token (jsonwebtoken, HS256, audience, issuer, expiry)
//   and check the session row (with the account and the company membership, one query); in one statement
//   lock the chat (its archive flag, agent and pending reply read under the lock), insert the message and
//   move the chat up; answer 201; emit the message and typing; POST the webhook with a keep-alive agent;
//   in one statement store the reply (once: the unique reply_to index), clear the pending flag and move
//   the chat up; emit the reply and typing false. Three statements.
// Runs as a child of bench/run.mjs (its own process, like the app), talks to it over IPC.
import { createSecretKey } from 'node:crypto';
import http from 'node:http';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { Server } from 'socket.io';

const {
  SAME_PATH_DATABASE_URL: databaseUrl,
  SAME_PATH_USER_ID: userId,
  SAME_PATH_SESSION_ID: sessionId,
} = process.env;
if (!databaseUrl || !userId || !sessionId || !process.send) {
  console.error('same-path-server.mjs is started by bench/run.mjs (needs its environment and IPC)');
  process.exit(2);
}

const AUDIENCE = 'switchboard-api';
const ISSUER = 'switchboard';
const key = createSecretKey(Buffer.from(`same-path-${process.pid}-${Date.now()}`, 'utf8'));
const token = jwt.sign({ sid: sessionId }, key, {
  subject: userId,
  algorithm: 'HS256',
  audience: AUDIENCE,
  issuer: ISSUER,
  expiresIn: 15 * 60,
});

const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(process.env.SAME_PATH_POOL_SIZE) || 20,
});
const webhookAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function verify(header) {
  const raw = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!raw) return null;
  try {
    const claims = jwt.verify(raw, key, { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER });
    return typeof claims.sub === 'string' && typeof claims.sid === 'string' && typeof claims.exp === 'number'
      ? claims
      : null;
  } catch {
    return null;
  }
}

const SESSION_SQL = `SELECT p.id, cu.role FROM sessions s JOIN profiles p ON p.id = s.user_id
  LEFT JOIN company_users cu ON cu.user_id = p.id AND cu.company_id = $3
  WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now() AND p.disabled_at IS NULL`;
const MESSAGE_COLUMNS =
  'm.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type, m.content, m.created_at';
const CHAT_COLUMNS = `c.id AS chat_row_id, c.title, c.is_archived AS chat_is_archived, c.last_message,
  c.last_message_at, c.created_at AS chat_created_at, c.updated_at AS chat_updated_at`;
// Lock the chat, check it, store the message and move the chat up: one statement. A refused send finds
// its reason in the target's columns; the unique pending index refuses a simultaneous second send.
const SEND_SQL = `WITH target AS (
   SELECT c.id, c.is_archived, c.agent_id, a.is_active, a.webhook,
     EXISTS (SELECT 1 FROM messages p WHERE p.chat_id = c.id AND p.reply_status = 'pending') AS pending
   FROM chats c JOIN agents a ON a.id = c.agent_id
   WHERE c.id = $1 AND c.user_id = $2 AND c.company_id = $3
   FOR UPDATE OF c
 ), stored AS (
   INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_status)
   SELECT t.id, $2, 'user', $4, 'pending' FROM target t
   WHERE NOT t.is_archived AND NOT t.pending AND t.is_active
   ON CONFLICT (chat_id) WHERE reply_status = 'pending' DO NOTHING
   RETURNING ${MESSAGE_COLUMNS}
 ), touched AS (
   UPDATE chats c SET last_message = $5, last_message_at = m.created_at, updated_at = m.created_at
   FROM stored m WHERE c.id = m.chat_id
   RETURNING ${CHAT_COLUMNS}
 )
 SELECT t.is_archived, t.is_active, t.pending, t.agent_id, t.webhook, m.*, c.*
 FROM target t LEFT JOIN stored m ON true LEFT JOIN touched c ON true`;
// Store the reply once, mark its message replied and move the chat up: one statement.
const REPLY_SQL = `WITH target AS (
   SELECT m.id, m.chat_id FROM messages m WHERE m.id = $1 AND m.reply_status = 'pending' FOR UPDATE OF m
 ), stored AS (
   INSERT INTO messages AS m (chat_id, sender_id, sender_type, content, reply_to)
   SELECT t.chat_id, $2, 'agent', $3, t.id FROM target t
   ON CONFLICT DO NOTHING
   RETURNING ${MESSAGE_COLUMNS}
 ), replied AS (
   UPDATE messages m SET reply_status = 'replied' FROM target t WHERE m.id = t.id
 ), touched AS (
   UPDATE chats c SET last_message = $4, last_message_at = m.created_at, updated_at = m.created_at
   FROM stored m WHERE c.id = m.chat_id
   RETURNING ${CHAT_COLUMNS}
 )
 SELECT m.*, c.* FROM stored m JOIN touched c ON true`;

/** A named prepared statement: parsed and planned once per connection, as the app's message path does. */
const prepared = (name, text, values) => pool.query({ name, text, values });

const messageView = (row) => ({
  id: row.id,
  chatId: row.chat_id,
  senderId: row.sender_id,
  senderType: row.sender_type,
  content: row.content,
  timestamp: row.created_at.toISOString(),
  isVoiceMessage: false,
  feedback: null,
  seq: row.seq,
});
const chatView = (row, companyId, agentId, pendingReply) => ({
  id: row.chat_row_id,
  companyId,
  agentId,
  title: row.title,
  isArchived: row.chat_is_archived,
  lastMessage: row.last_message,
  lastMessageAt: row.last_message_at.toISOString(),
  pendingReply,
  createdAt: row.chat_created_at.toISOString(),
  updatedAt: row.chat_updated_at.toISOString(),
});

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > 100 * 1024) reject(new HttpError(413, 'The request is too large.'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new HttpError(400, 'The request body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROUTE = /^\/api\/chats\/([^/]+)\/messages$/;

async function handle(req, res) {
  const match = req.method === 'POST' ? ROUTE.exec(req.url ?? '') : null;
  if (!match) throw new HttpError(404, 'Not found');
  const claims = verify(req.headers.authorization);
  if (!claims) throw new HttpError(401, 'Authentication required');
  const companyId = String(req.headers['x-company-id'] ?? '').toLowerCase();
  if (!UUID.test(companyId)) throw new HttpError(404, 'Company not found');
  const { rows: sessionRows } = await prepared('session', SESSION_SQL, [claims.sid, claims.sub, companyId]);
  if (!sessionRows[0]) throw new HttpError(401, 'Your session has ended. Please sign in again.');
  if (!sessionRows[0].role) throw new HttpError(404, 'Company not found');
  const chatId = match[1].toLowerCase();
  if (!UUID.test(chatId)) throw new HttpError(404, 'Chat not found');
  const body = await readJson(req);
  const text = typeof body?.content === 'string' ? body.content.trim() : '';
  if (!text) throw new HttpError(400, 'Please enter a message');
  if (text.length > 10_000) throw new HttpError(400, 'A message can be at most 10000 characters');
  const user = claims.sub;

  const row = (await prepared('send', SEND_SQL, [chatId, user, companyId, text, text.slice(0, 200)])).rows[0];
  if (!row) throw new HttpError(404, 'Chat not found');
  if (row.is_archived) throw new HttpError(400, 'This chat is archived. Restore it to send messages.');
  if (row.pending || (row.is_active && !row.id))
    throw new HttpError(409, 'Please wait for the agent to reply before sending another message.');
  if (!row.is_active) throw new HttpError(400, 'This agent is not active');
  const chat = { agent_id: row.agent_id, webhook: row.webhook };
  const sent = { chat, message: messageView(row), view: chatView(row, companyId, chat.agent_id, true) };
  send(res, 201, sent.message);
  const room = `user:${user}`;
  io.to(room).emit('message.created', { companyId, chatId, message: sent.message, chat: sent.view });
  io.to(room).emit('agent.typing', { companyId, chatId, typing: true });
  setImmediate(() => void reply(room, user, companyId, sent));
}

function postWebhook(url, body) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: webhookAgent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(payload),
          'webhook-id': body.messageId,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(payload);
  });
}

function agentText(body) {
  try {
    const output = JSON.parse(body)?.[0]?.output;
    if (typeof output === 'string' && output.trim()) return output;
  } catch {
    /* not JSON */
  }
  return "Sorry, I couldn't process your request correctly.";
}

async function reply(room, user, companyId, { chat, message }) {
  const chatId = message.chatId;
  try {
    const answer = await postWebhook(chat.webhook, {
      message: message.content,
      sessionId: chatId,
      chatId,
      messageId: message.id,
      agentId: chat.agent_id,
      userId: user,
      companyId,
    });
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`Webhook response error: ${answer.status}`);
    const text = agentText(answer.body);
    const storedRow = (
      await prepared('reply', REPLY_SQL, [message.id, chat.agent_id, text, text.slice(0, 200)])
    ).rows[0];
    const stored = storedRow && {
      message: messageView(storedRow),
      view: chatView(storedRow, companyId, chat.agent_id, false),
    };
    if (!stored) return;
    io.to(room).emit('message.created', { companyId, chatId, message: stored.message, chat: stored.view });
    io.to(room).emit('agent.typing', { companyId, chatId, typing: false });
  } catch (error) {
    await pool
      .query(`UPDATE messages SET reply_status = 'failed' WHERE id = $1 AND reply_status = 'pending'`, [
        message.id,
      ])
      .catch(() => undefined);
    io.to(room).emit('agent.reply_failed', {
      companyId,
      chatId,
      messageId: message.id,
      reason: String(error),
    });
  }
}

const httpServer = http.createServer((req, res) => {
  handle(req, res).catch((error) => {
    if (res.headersSent) return;
    send(res, error instanceof HttpError ? error.status : 500, { message: error.message });
  });
});
const io = new Server(httpServer, { serveClient: false });
// The handshake checks the token and the session once; the socket joins its user's room.
io.use((socket, next) => {
  const raw = socket.handshake.auth?.token;
  const claims = typeof raw === 'string' ? verify(`Bearer ${raw}`) : null;
  if (!claims) return next(new Error('unauthorized'));
  pool.query(SESSION_SQL, [claims.sid, claims.sub, null]).then(
    ({ rows }) => {
      if (!rows[0]) return next(new Error('unauthorized'));
      socket.data.userId = claims.sub;
      next();
    },
    (error) => next(error),
  );
});
io.on('connection', (socket) => void socket.join(`user:${socket.data.userId}`));

httpServer.listen(0, '127.0.0.1', () => process.send({ port: httpServer.address().port, token }));

function shutdown() {
  io.close();
  webhookAgent.destroy();
  pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('disconnect', shutdown);
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
