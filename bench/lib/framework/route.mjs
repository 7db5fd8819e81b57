// What the three servers of bench/tools/framework-cost.mjs share: the access token, the security
// headers, the send route's rules and its answers. Shaped like the app's (auth/access-token.service.ts,
// bootstrap.ts, chats/dto/chat.dto.ts, common/validation.ts) but with no database: the framework only.
import { createSecretKey, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import jwt from 'jsonwebtoken';

const AUDIENCE = 'switchboard-api';
const ISSUER = 'switchboard';
const KEY = createSecretKey(Buffer.from('framework-cost bench secret, not a real one', 'utf8'));

export const BODY_LIMIT = 100 * 1024;
export const MAX_MESSAGE_LENGTH = 20_000;
export const MAX_ATTACHMENTS = 10;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The app's compression threshold (web/serve-frontend.ts): a sent message's answer stays plain. */
export const COMPRESS_THRESHOLD = 2048;

export function signAccessToken(userId, sessionId) {
  return jwt.sign({ sid: sessionId }, KEY, {
    subject: userId,
    algorithm: 'HS256',
    audience: AUDIENCE,
    issuer: ISSUER,
    expiresIn: 15 * 60,
  });
}

/** As the app's AccessTokenService.verify: HS256 only, audience, issuer and expiry checked. */
export function verifyAccessToken(token) {
  try {
    const claims = jwt.verify(token, KEY, { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER });
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number')
      return null;
    return typeof claims.sid === 'string' ? { sub: claims.sub, sid: claims.sid } : null;
  } catch {
    return null;
  }
}

/** The claims of a request's `Authorization: Bearer` token, or null. */
export function bearerClaims(authorization) {
  const header = authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return token ? verifyAccessToken(token) : null;
}

/** helmet's options as bootstrap.ts gives them (connect-src as a default configuration makes it). */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      connectSrc: ["'self'", 'ws://localhost:3000', 'wss://api.elevenlabs.io'],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/** helmet's headers with the app's options, collected once: they do not depend on the request. */
export function helmetHeaders() {
  const headers = [];
  const res = { setHeader: (name, value) => headers.push([name, value]), removeHeader: () => {} };
  createRequire(import.meta.url)('helmet')(HELMET_OPTIONS)({}, res, () => {});
  return headers;
}

/** A MessageDto-shaped answer to a sent message (about 600 bytes with the bench's content). */
export function messageAnswer(chatId, userId, content) {
  return {
    id: randomUUID(),
    chatId,
    senderId: userId,
    senderType: 'user',
    content,
    timestamp: new Date().toISOString(),
    isVoiceMessage: false,
    feedback: null,
    feedbackReason: null,
    seq: '1048576',
    interrupted: null,
    interruptedReason: null,
  };
}

const HISTORY_TEXT =
  'A reply of an ordinary length, the kind an agent sends back when asked a short question about a ' +
  'schedule, an invoice or a document: a few sentences, some figures, a closing line.';

/** A MessagePageDto-shaped history page of about 10 kB: what the GET route answers (compressed). */
export function historyPage(chatId, userId) {
  const messages = [];
  for (let i = 0; i < 24; i++) {
    messages.push({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      chatId,
      senderId: i % 2 ? 'default-agent' : userId,
      senderType: i % 2 ? 'agent' : 'user',
      content: `${HISTORY_TEXT} (${i})`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 12, i)).toISOString(),
      isVoiceMessage: false,
      feedback: null,
      seq: String(1000 + i),
    });
  }
  return { messages, hasMore: true, pendingReply: false, streamingReply: null };
}

/** The child's side of the IPC: its port once listening, its own CPU time when the bench asks. */
export function reportToParent(port) {
  if (!process.send) {
    console.log(`listening on 127.0.0.1:${port} (no IPC: started by hand)`);
    return;
  }
  process.on('message', (message) => {
    if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ port });
}
