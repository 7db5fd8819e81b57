// The floor for bench/tools/framework-cost.mjs: node `http` doing by hand what the Nest servers do for
// the same two routes (token check, body limit, JSON.parse, the DTO's rules, helmet's headers, JSON
// answers, brotli/gzip above the app's threshold), and nothing else.
import http from 'node:http';
import zlib from 'node:zlib';
import {
  BODY_LIMIT,
  COMPRESS_THRESHOLD,
  helmetHeaders,
  MAX_ATTACHMENTS,
  MAX_MESSAGE_LENGTH,
  UUID,
  bearerClaims,
  historyPage,
  messageAnswer,
  reportToParent,
} from './route.mjs';

const SECURITY_HEADERS = helmetHeaders();
const ROUTE = /^\/api\/chats\/([^/?]+)\/messages(?:\?.*)?$/;
const ALLOWED_FIELDS = new Set(['content', 'attachmentIds']);
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

function send(res, status, body, acceptEncoding = '') {
  let payload = Buffer.from(JSON.stringify(body));
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (payload.length >= COMPRESS_THRESHOLD) {
    res.setHeader('Vary', 'Accept-Encoding');
    // The same preference as compression and @fastify/compress: brotli (quality 4), then gzip.
    if (/\bbr\b/.test(acceptEncoding)) {
      payload = zlib.brotliCompressSync(payload, BROTLI);
      res.setHeader('Content-Encoding', 'br');
    } else if (/\bgzip\b/.test(acceptEncoding)) {
      payload = zlib.gzipSync(payload);
      res.setHeader('Content-Encoding', 'gzip');
    }
  }
  res.setHeader('Content-Length', payload.length);
  res.end(payload);
}

const fail = (res, status, message) => send(res, status, { message, statusCode: status });

/** SendMessageDto's rules by hand, in the same order; the first failure's message, or null. */
function invalid(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The request is not valid.';
  for (const key of Object.keys(body)) if (!ALLOWED_FIELDS.has(key)) return `Unknown field "${key}".`;
  const { attachmentIds } = body;
  if (typeof body.content === 'string') body.content = body.content.trim();
  const files = Array.isArray(attachmentIds) && attachmentIds.length > 0;
  const content = body.content;
  if (content === undefined || content === null ? !files : typeof content !== 'string') {
    return 'Please enter a message';
  }
  if (content.length > MAX_MESSAGE_LENGTH) return `A message can be at most ${MAX_MESSAGE_LENGTH} characters`;
  if (!files && !/\S/.test(content)) return 'Please enter a message';
  if (attachmentIds !== undefined) {
    if (!Array.isArray(attachmentIds)) return 'attachmentIds must be a list of file ids';
    if (attachmentIds.length > MAX_ATTACHMENTS)
      return `A message can carry at most ${MAX_ATTACHMENTS} files.`;
    if (!attachmentIds.every((id) => typeof id === 'string' && UUID.test(id))) {
      return 'An attached file was not found. Please attach it again.';
    }
  }
  return null;
}

/** The body as JSON, at most BODY_LIMIT bytes; answers 413 or 400 itself and resolves undefined. */
function readJson(req, res) {
  return new Promise((resolve) => {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('application/json')) {
      req.resume();
      fail(res, 415, 'Unsupported Media Type');
      return resolve(undefined);
    }
    if (Number(req.headers['content-length']) > BODY_LIMIT) {
      req.resume();
      fail(res, 413, 'request entity too large');
      return resolve(undefined);
    }
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > BODY_LIMIT) {
        fail(res, 413, 'request entity too large');
        return resolve(undefined);
      }
      try {
        resolve(JSON.parse(Buffer.concat(chunks, size).toString('utf8')));
      } catch {
        fail(res, 400, 'Body is not valid JSON');
        resolve(undefined);
      }
    });
  });
}

async function handle(req, res) {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  const match = ROUTE.exec(req.url ?? '');
  if (!match || (req.method !== 'POST' && req.method !== 'GET')) {
    req.resume();
    return fail(res, 404, 'Not Found');
  }
  const claims = bearerClaims(req.headers.authorization);
  if (!claims) {
    req.resume();
    return fail(res, 401, 'Authentication required');
  }
  const id = match[1];
  if (!UUID.test(id)) {
    req.resume();
    return fail(res, 400, 'Validation failed (uuid is expected)');
  }
  if (req.method === 'GET')
    return send(res, 200, historyPage(id, claims.sub), req.headers['accept-encoding']);
  const body = await readJson(req, res);
  if (body === undefined) return;
  const problem = invalid(body);
  if (problem) return fail(res, 400, problem);
  send(res, 201, messageAnswer(id, claims.sub, body.content ?? ''));
}

const server = http.createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) fail(res, 500, 'Internal Server Error');
    else res.destroy();
  });
});
server.listen(0, '127.0.0.1', () => reportToParent(server.address().port));
