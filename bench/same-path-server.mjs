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
//
// SAME_PATH_PRODUCT=1 (the `samePathProduct` system): the same, plus by hand the work the product does for
// every message that the path above leaves out: helmet's security headers and a request id on the answer,
// a rate-limit counter, the hostile-body checks (JSON depth, NUL and lone surrogates), one access-log line
// (JSON, written synchronously) and the request's metrics; on the webhook call a Standard Webhooks
// signature, a callback URL and token (HMAC) in the body and the request id header; then the delivery
// log's row, redacted (headers, body, answer), in the reply's statement (still three statements), the
// reply's metrics and one log line for the job. It separates what the framework costs from what the
// product's own features cost.
// Runs as a child of bench/run.mjs (its own process, like the app), talks to it over IPC.
import { createHmac, createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { Histogram, Counter, Registry } from 'prom-client';
import { Server } from 'socket.io';
import { helmetHeaders } from './lib/framework/route.mjs';

const PRODUCT = process.env.SAME_PATH_PRODUCT === '1';

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
   SELECT c.id, c.is_archived, c.agent_id, a.is_active, a.webhook,${
     PRODUCT
       ? ` a.signing_secret, (floor(extract(epoch FROM now()) * 1000) + 60000 * a.callback_deadline_minutes)::float8
     AS callback_expires_at,`
       : ''
   }
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
 SELECT t.is_archived, t.is_active, t.pending, t.agent_id, t.webhook,${
   PRODUCT ? ' t.signing_secret, t.callback_expires_at,' : ''
 } m.*, c.*
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
 )${
   PRODUCT
     ? `, logged AS (
   INSERT INTO webhook_deliveries (company_id, agent_id, chat_id, message_id, round, started_at, duration_ms,
     attempts, outcome, http_status, request_id, request_headers, request_body, response_body, reply_id)
   SELECT co.id, $2, t.chat_id, t.id, 0, $6::timestamptz, $7::int, 1, 'delivered', $8::int, $9::text,
     CASE WHEN co.delivery_retention_days > 0 THEN $10::jsonb END,
     CASE WHEN co.delivery_retention_days > 0 THEN $11::text END,
     CASE WHEN co.delivery_retention_days > 0 THEN $12::text END, m.id
   FROM target t JOIN stored m ON true JOIN companies co ON co.id = $5::uuid
   ON CONFLICT (message_id, round) DO NOTHING
 )`
     : ''
 }
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

// ---- The product's own per-message work (SAME_PATH_PRODUCT=1), by hand ----
const SECURITY_HEADERS = PRODUCT ? helmetHeaders() : [];
// As the app's: a fixed window per user and route (its limits raised the same way for the bench).
const RATE_WINDOW_MS = 60_000;
const RATE_LIMIT = 60 * (Number(process.env.RATE_LIMIT_SCALE) || 1000);
const rateWindows = new Map();
function withinRate(key) {
  const now = Date.now();
  const window = rateWindows.get(key);
  if (!window || window.resetAt <= now) {
    rateWindows.set(key, { count: 1, resetAt: now + RATE_WINDOW_MS });
    return true;
  }
  return ++window.count <= RATE_LIMIT;
}
/** JSON nested deeper than 32 is refused before parsing: one pass over the bytes outside strings. */
function tooDeep(buf) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > 32) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const hostileText = (text) => text.includes('\u0000') || LONE_SURROGATE.test(text);
// Metrics as the app keeps them (prom-client): the request, the job, the webhook call, the reply.
const registry = new Registry();
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests',
  labelNames: ['method', 'route', 'status_class'],
  registers: [registry],
});
const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'jobs',
  labelNames: ['job'],
  registers: [registry],
});
const jobOutcomes = new Counter({
  name: 'jobs',
  help: 'jobs',
  labelNames: ['job', 'outcome'],
  registers: [registry],
});
const webhookDuration = new Histogram({ name: 'webhook_seconds', help: 'webhooks', registers: [registry] });
const webhookCalls = new Counter({
  name: 'webhooks',
  help: 'webhooks',
  labelNames: ['outcome'],
  registers: [registry],
});
const replyOutcomes = new Counter({
  name: 'replies',
  help: 'replies',
  labelNames: ['company_id', 'agent_id', 'outcome'],
  registers: [registry],
});
// One JSON line per request and per job, written synchronously as the app's logger does (to a pipe the
// bench reads, as the app's stdout is).
const HOSTNAME = os.hostname();
function logLine(fields, msg) {
  const line = JSON.stringify({
    level: 'info',
    time: new Date().toISOString(),
    pid: process.pid,
    hostname: HOSTNAME,
    ...fields,
    msg,
  });
  writeSync(1, `${line}\n`);
}
// The callback token: an expiry and an HMAC of it with the message id, base64url (as the app's).
const callbackKey = createSecretKey(randomBytes(32));
const CALLBACK_LABEL = Buffer.from('agent-callback\0', 'latin1');
function callbackToken(messageId, expiresAtMs) {
  const header = Buffer.alloc(7);
  header.writeUInt8(1, 0);
  header.writeUIntBE(Math.floor(expiresAtMs), 1, 6);
  const mac = createHmac('sha256', callbackKey)
    .update(CALLBACK_LABEL)
    .update(header)
    .update(messageId.toLowerCase(), 'latin1')
    .digest()
    .subarray(0, 24);
  return Buffer.concat([header, mac]).toString('base64url');
}
/** Standard Webhooks: base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" with the decoded secret. */
function signature(secret, id, timestamp, payload) {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64')}`;
}
const SECRET_NAME =
  /pass(word|wd)?|secret|token|api[-_ ]?key|apikey|authorization|signature|credential|cookie|private[-_]?key|^sig$/i;
const REDACTED = '[redacted]';
/** The delivery log's copy of a JSON value: secret-named fields redacted, cut at 16,384 characters. */
function redactedJson(value) {
  const text = JSON.stringify(value, (key, item) =>
    key && SECRET_NAME.test(key) && item !== null && item !== undefined && item !== '' ? REDACTED : item,
  );
  return text.length > 16_384 ? text.slice(0, 16_384) : text;
}
function redactedAnswer(text) {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return redactedJson(JSON.parse(text));
    } catch {
      /* text */
    }
  }
  return text.slice(0, 16_384).replace(/\bBearer\s+[\w.~+/=-]+/g, `Bearer ${REDACTED}`);
}

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
      const raw = Buffer.concat(chunks);
      if (PRODUCT && tooDeep(raw))
        return reject(new HttpError(400, 'The request body is nested too deeply.'));
      try {
        resolve(JSON.parse(raw.toString('utf8')));
      } catch {
        reject(new HttpError(400, 'The request body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROUTE = /^\/api\/chats\/([^/]+)\/messages$/;

async function handle(req, res, requestId) {
  const match = req.method === 'POST' ? ROUTE.exec(req.url ?? '') : null;
  if (!match) throw new HttpError(404, 'Not found');
  const claims = verify(req.headers.authorization);
  if (!claims) throw new HttpError(401, 'Authentication required');
  const companyId = String(req.headers['x-company-id'] ?? '').toLowerCase();
  if (!UUID.test(companyId)) throw new HttpError(404, 'Company not found');
  const { rows: sessionRows } = await prepared('session', SESSION_SQL, [claims.sid, claims.sub, companyId]);
  if (!sessionRows[0]) throw new HttpError(401, 'Your session has ended. Please sign in again.');
  if (!sessionRows[0].role) throw new HttpError(404, 'Company not found');
  if (PRODUCT && !withinRate(`message:${claims.sub}`)) throw new HttpError(429, 'Too many requests');
  const chatId = match[1].toLowerCase();
  if (!UUID.test(chatId)) throw new HttpError(404, 'Chat not found');
  const body = await readJson(req);
  const text = typeof body?.content === 'string' ? body.content.trim() : '';
  if (PRODUCT && hostileText(text)) throw new HttpError(400, 'Text must not contain NUL characters.');
  if (!text) throw new HttpError(400, 'Please enter a message');
  if (text.length > 10_000) throw new HttpError(400, 'A message can be at most 10000 characters');
  const user = claims.sub;

  const row = (await prepared('send', SEND_SQL, [chatId, user, companyId, text, text.slice(0, 200)])).rows[0];
  if (!row) throw new HttpError(404, 'Chat not found');
  if (row.is_archived) throw new HttpError(400, 'This chat is archived. Restore it to send messages.');
  if (row.pending || (row.is_active && !row.id))
    throw new HttpError(409, 'Please wait for the agent to reply before sending another message.');
  if (!row.is_active) throw new HttpError(400, 'This agent is not active');
  const chat = {
    agent_id: row.agent_id,
    webhook: row.webhook,
    secret: row.signing_secret ?? null,
    callbackExpiresAt: row.callback_expires_at,
    requestId,
  };
  const sent = { chat, message: messageView(row), view: chatView(row, companyId, chat.agent_id, true) };
  send(res, 201, sent.message);
  const room = `user:${user}`;
  io.to(room).emit('message.created', { companyId, chatId, message: sent.message, chat: sent.view });
  io.to(room).emit('agent.typing', { companyId, chatId, typing: true });
  setImmediate(() => void reply(room, user, companyId, sent));
}

function postWebhook(url, body, secret = null, requestId = null) {
  const payload = JSON.stringify(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'content-length': Buffer.byteLength(payload),
    'webhook-id': body.messageId,
    'webhook-timestamp': String(timestamp),
  };
  if (secret) headers['webhook-signature'] = signature(secret, body.messageId, timestamp, payload);
  if (requestId) headers['x-request-id'] = requestId;
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: webhookAgent,
        headers,
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
  const jobStarted = performance.now();
  try {
    const body = {
      message: message.content,
      sessionId: chatId,
      chatId,
      messageId: message.id,
      agentId: chat.agent_id,
      userId: user,
      companyId,
      ...(PRODUCT
        ? {
            callbackUrl: `http://127.0.0.1/api/agent-callbacks/${message.id}`,
            callbackToken: callbackToken(message.id, chat.callbackExpiresAt),
          }
        : {}),
    };
    const startedAt = Date.now();
    const answer = await postWebhook(chat.webhook, body, chat.secret, chat.requestId);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`Webhook response error: ${answer.status}`);
    const text = agentText(answer.body);
    const values = [message.id, chat.agent_id, text, text.slice(0, 200)];
    if (PRODUCT) {
      const durationMs = Date.now() - startedAt;
      webhookDuration.observe(durationMs / 1000);
      webhookCalls.inc({ outcome: 'ok' });
      values.push(
        companyId,
        new Date(startedAt).toISOString(),
        durationMs,
        answer.status,
        message.id,
        JSON.stringify({
          'content-type': 'application/json',
          'webhook-id': message.id,
          ...(chat.secret ? { 'webhook-signature': REDACTED } : {}),
          ...(chat.requestId ? { 'x-request-id': chat.requestId } : {}),
        }),
        redactedJson(body),
        redactedAnswer(answer.body),
      );
    }
    const storedRow = (await prepared(PRODUCT ? 'reply-logged' : 'reply', REPLY_SQL, values)).rows[0];
    const stored = storedRow && {
      message: messageView(storedRow),
      view: chatView(storedRow, companyId, chat.agent_id, false),
    };
    if (!stored) return;
    io.to(room).emit('message.created', { companyId, chatId, message: stored.message, chat: stored.view });
    io.to(room).emit('agent.typing', { companyId, chatId, typing: false });
    if (PRODUCT) {
      replyOutcomes.inc({ company_id: companyId, agent_id: chat.agent_id, outcome: 'replied' });
      const ms = performance.now() - jobStarted;
      jobDuration.observe({ job: 'agent.reply' }, ms / 1000);
      jobOutcomes.inc({ job: 'agent.reply', outcome: 'completed' });
      logLine(
        { job: 'agent.reply', requestId: chat.requestId, context: 'Jobs' },
        `Job agent.reply completed in ${Math.round(ms)} ms`,
      );
    }
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
  let requestId = null;
  if (PRODUCT) {
    requestId = randomUUID();
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    const startedAt = Date.now();
    res.on('finish', () => {
      httpDuration.observe(
        {
          method: req.method,
          route: '/api/chats/:id/messages',
          status_class: `${Math.floor(res.statusCode / 100)}xx`,
        },
        (performance.now() - started) / 1000,
      );
      const path = req.url.split('?')[0];
      logLine(
        { requestId, method: req.method, path, status: res.statusCode, durationMs: Date.now() - startedAt },
        `${req.method} ${path} ${res.statusCode}`,
      );
    });
  }
  handle(req, res, requestId).catch((error) => {
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
