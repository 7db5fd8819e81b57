import { randomUUID } from 'node:crypto';
import type { ValidationPipe } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, type TestApp } from '../../test/app.test-util';
import { uploadedTo, pngBytes } from '../../test/attachments.test-util';
import { as } from '../../test/auth';
import { newAgent, newChat, newMembership, newMessage } from '../../test/factories';
import { type Account, registerAccount, revokeSession } from '../../test/identities.test-util';
import { connectSocket, type FakeWebhook, startFakeWebhook } from '../../test/realtime.test-util';
import type { ChatView } from '../realtime/client-events';
import { sendMessageRoute } from './send-message.route';
import { lifecycle } from '../common/graceful-shutdown';
import { AccessTokenGuard } from '../auth/access-token.guard';
import { createValidationPipe } from '../common/validation';
import { httpDuration } from '../metrics/metrics';
import { CompanySsoEntity } from '../sso/company-sso.entity';

/**
 * The lean send-message route (send-message.route.ts) answers `POST /api/chats/:id/messages` outside
 * Nest's pipeline: every request below goes to an app with it and to one without it (Nest's own route),
 * each with a world of its own made the same way, and the two answers must be the same: status, body
 * and headers (ids and times, which differ between the two worlds, aside).
 */

/** A world: an account that owns a company, with a chat on an agent at the fake webhook. */
interface World {
  t: TestApp;
  owner: Account;
  chat: ChatView;
  hook: FakeWebhook;
}

type Row = [name: string, call: (w: World) => Promise<request.Response>];

const REQUEST_ID = 'send-matrix-request';

/** A send as the browser makes it (the caller's token and company, an address of its own). */
function send(w: World, body: unknown, options: { path?: string; caller?: Account; headers?: object } = {}) {
  const caller = options.caller ?? w.owner;
  return request(w.t.http)
    .post(options.path ?? `/api/chats/${w.chat.id}/messages`)
    .set(as(caller))
    .set('X-Request-Id', REQUEST_ID)
    .set({ ...options.headers })
    .send(body as object);
}

/** Someone else, owner of a company of their own. */
async function otherAccount(w: World): Promise<Account> {
  return registerAccount(w.t, 'send-other');
}

/** A member (role `user`) of the owner's company, signed in with a password. */
async function member(w: World): Promise<Account> {
  const account = await registerAccount(w.t, 'send-member');
  await newMembership(w.t.app, w.owner, account, 'user');
  return { ...account, companyId: w.owner.companyId };
}

const rows: Row[] = [
  ['a normal send', (w) => send(w, { content: '  hello  ' })],
  ['a send with attachmentIds: []', (w) => send(w, { content: 'hello', attachmentIds: [] })],
  ['a trailing slash', (w) => send(w, { content: 'hello' }, { path: `/api/chats/${w.chat.id}/messages/` })],
  [
    'two trailing slashes',
    (w) => send(w, { content: 'hello' }, { path: `/api/chats/${w.chat.id}/messages//` }),
  ],
  [
    'an upper-case path',
    (w) => send(w, { content: 'hello' }, { path: `/API/Chats/${w.chat.id.toUpperCase()}/MESSAGES` }),
  ],
  ['a query string', (w) => send(w, { content: 'hello' }, { path: `/api/chats/${w.chat.id}/messages?x=1` })],
  [
    'a percent-encoded id',
    (w) =>
      send(
        w,
        { content: 'hi' },
        { path: `/api/chats/${encodeURIComponent(w.chat.id).replace('-', '%2D')}/messages` },
      ),
  ],
  [
    'a malformed percent-encoding',
    (w) => send(w, { content: 'hi' }, { path: '/api/chats/%E0%A4%A/messages' }),
  ],
  [
    'an encoded slash in the id',
    (w) => send(w, { content: 'hi' }, { path: `/api/chats/${w.chat.id}%2Fx/messages` }),
  ],
  ['an empty id', (w) => send(w, { content: 'hi' }, { path: '/api/chats//messages' })],
  [
    'a double slash before the path',
    (w) => send(w, { content: 'hi' }, { path: `//api/chats/${w.chat.id}/messages` }),
  ],
  ['no token', (w) => request(w.t.http).post(`/api/chats/${w.chat.id}/messages`).send({ content: 'hi' })],
  ['a bad token', (w) => send(w, { content: 'hi' }, { headers: { Authorization: 'Bearer not-a-token' } })],
  [
    'a token without Bearer',
    (w) => send(w, { content: 'hi' }, { headers: { Authorization: w.owner.accessToken } }),
  ],
  [
    'a revoked session',
    async (w) => {
      await revokeSession(w.t, w.owner);
      return send(w, { content: 'hi' });
    },
  ],
  [
    'no X-Company-Id',
    (w) =>
      request(w.t.http)
        .post(`/api/chats/${w.chat.id}/messages`)
        .set('Authorization', `Bearer ${w.owner.accessToken}`)
        .send({ content: 'hi' }),
  ],
  [
    'a malformed company id',
    (w) => send(w, { content: 'hi' }, { headers: { 'X-Company-Id': 'not-a-uuid' } }),
  ],
  ['an unknown company id', (w) => send(w, { content: 'hi' }, { headers: { 'X-Company-Id': randomUUID() } })],
  [
    'the company id in capitals',
    (w) => send(w, { content: 'hello' }, { headers: { 'X-Company-Id': w.owner.companyId.toUpperCase() } }),
  ],
  [
    'a non-member of the company',
    async (w) =>
      send(w, { content: 'hi' }, { caller: { ...(await otherAccount(w)), companyId: w.owner.companyId } }),
  ],
  [
    "a chat of another company (the caller's own company named)",
    async (w) => send(w, { content: 'hi' }, { caller: await otherAccount(w) }),
  ],
  [
    "a member sending to the owner's chat",
    async (w) => send(w, { content: 'hi' }, { caller: await member(w) }),
  ],
  [
    'a member of a company that requires SSO, signed in with a password',
    async (w) => {
      const caller = await member(w);
      const sso = w.t.app.get(DataSource).getRepository(CompanySsoEntity);
      await sso.save(
        sso.create({
          companyId: w.owner.companyId,
          enabled: true,
          issuer: 'https://idp.example.com',
          clientId: 'switchboard',
          clientSecretSealed: null,
          requireSso: true,
          autoJoin: false,
        }),
      );
      return send(w, { content: 'hi' }, { caller });
    },
  ],
  [
    'a chat id that is not a uuid',
    (w) => send(w, { content: 'hi' }, { path: '/api/chats/not-a-uuid/messages' }),
  ],
  ['an unknown chat', (w) => send(w, { content: 'hi' }, { path: `/api/chats/${randomUUID()}/messages` })],
  [
    'an archived chat',
    async (w) => {
      const chat = await newChat(w.t.app, w.owner, { archived: true });
      return send(w, { content: 'hi' }, { path: `/api/chats/${chat.id}/messages` });
    },
  ],
  [
    'a reply still pending',
    async (w) => {
      await newMessage(w.t.app, w.owner, w.chat.id, { replyStatus: 'pending' });
      return send(w, { content: 'hi' });
    },
  ],
  [
    'an inactive agent',
    async (w) => {
      const agent = await newAgent(w.t.app, w.owner, { isActive: false, webhook: `${w.hook.url}/ok` });
      const chat = await newChat(w.t.app, w.owner, { agent });
      return send(w, { content: 'hi' }, { path: `/api/chats/${chat.id}/messages` });
    },
  ],
  ['empty content', (w) => send(w, { content: '   ' })],
  ['no content', (w) => send(w, {})],
  ['null content', (w) => send(w, { content: null })],
  ['content too long', (w) => send(w, { content: 'x'.repeat(20_001) })],
  ['content a number', (w) => send(w, { content: 42 })],
  ['an unknown field', (w) => send(w, { content: 'hi', extra: true })],
  ['a body that is an array', (w) => send(w, [{ content: 'hi' }])],
  ['attachmentIds null', (w) => send(w, { content: 'hi', attachmentIds: null })],
  ['attachmentIds not a list', (w) => send(w, { content: 'hi', attachmentIds: 'abc' })],
  ['attachmentIds not uuids', (w) => send(w, { content: 'hi', attachmentIds: ['abc'] })],
  [
    'too many attachmentIds',
    (w) => send(w, { content: 'hi', attachmentIds: Array.from({ length: 11 }, () => randomUUID()) }),
  ],
  ['an unknown attachment', (w) => send(w, { content: 'hi', attachmentIds: [randomUUID()] })],
  [
    'an attachment of the chat, without text',
    async (w) => {
      const file = await uploadedTo(w.t, w.owner, w.chat.id, 'a.png', await pngBytes());
      return send(w, { attachmentIds: [file.id] });
    },
  ],
  [
    'a bad chat id and a bad body (which error comes first)',
    (w) => send(w, { content: 42, extra: 1 }, { path: '/api/chats/nope/messages' }),
  ],
  [
    'no company and a bad body',
    (w) =>
      request(w.t.http)
        .post('/api/chats/nope/messages')
        .set('Authorization', `Bearer ${w.owner.accessToken}`)
        .send({ content: 42 }),
  ],
  ['content-type text/plain', (w) => send(w, 'hello', { headers: { 'Content-Type': 'text/plain' } })],
  [
    'a form post',
    (w) => send(w, 'content=hello', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
  ],
  ['malformed JSON', (w) => send(w, '{"content": ', { headers: { 'Content-Type': 'application/json' } })],
  ['a body too large', (w) => send(w, { content: 'x'.repeat(150_000) })],
  [
    'deep JSON',
    (w) =>
      send(w, `{"content":"hi","a":${'['.repeat(200)}${']'.repeat(200)}}`, {
        headers: { 'Content-Type': 'application/json' },
      }),
  ],
  ['hostile text (a NUL)', (w) => send(w, { content: 'hi\u0000there' })],
  [
    'no X-Request-Id of its own',
    (w) =>
      request(w.t.http).post(`/api/chats/${w.chat.id}/messages`).set(as(w.owner)).send({ content: 'hi' }),
  ],
  [
    'GET of the same path (not taken)',
    (w) => request(w.t.http).get(`/api/chats/${w.chat.id}/messages`).set(as(w.owner)),
  ],
  [
    'OPTIONS of the same path (not taken)',
    (w) => request(w.t.http).options(`/api/chats/${w.chat.id}/messages`).set(as(w.owner)),
  ],
  [
    'PUT of the same path (not taken)',
    (w) => request(w.t.http).put(`/api/chats/${w.chat.id}/messages`).set(as(w.owner)).send({ content: 'hi' }),
  ],
  [
    'POST to a longer path (not taken)',
    (w) => send(w, { content: 'hi' }, { path: `/api/chats/${w.chat.id}/messages/x` }),
  ],
  [
    'an id that is not valid percent-encoding',
    (w) => send(w, { content: 'hi' }, { path: '/api/chats/%FF/messages' }),
  ],
  [
    'while the node drains (Connection: close)',
    async (w) => {
      lifecycle.draining = true;
      try {
        return await send(w, { content: 'hi' });
      } finally {
        lifecycle.draining = false;
      }
    },
  ],
  [
    'an X-Forwarded-For from a proxy the app does not trust',
    (w) => send(w, { content: 'hi' }, { headers: { 'X-Forwarded-For': '203.0.113.7' } }),
  ],
  ['an empty body', (w) => send(w, '', { headers: { 'Content-Type': 'application/json' } })],
  [
    'JSON in another charset',
    (w) => send(w, '{"content":"hi"}', { headers: { 'Content-Type': 'application/json; charset=utf-16' } }),
  ],
  [
    'rate limited (the 61st send of a minute), while naming a company it is not a member of',
    async (w) => {
      const path = `/api/chats/${randomUUID()}/messages`;
      for (let i = 0; i < 60; i++) await send(w, { content: 'hi' }, { path }).expect(404);
      return send(w, { content: 'hi' }, { path, headers: { 'X-Company-Id': randomUUID() } });
    },
  ],
];

/** Ids, times, sequence numbers and signatures differ between the two worlds; nothing else may. */
function comparable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      // A message's place in the one sequence of all messages, and a file link's signature (of its id).
      .replace(/(\\?"seq\\?":\\?")\d+/g, '$1<seq>')
      .replace(/sig=[\w-]+/g, 'sig=<sig>'),
  );
}

/**
 * Every header but the date, the generated X-Request-Id when the request sent none, and a sent
 * message's length (its sequence number's digits differ; the text is compared).
 */
function headersOf(res: request.Response): Record<string, unknown> {
  const { date: _date, ...headers } = res.headers as Record<string, unknown>;
  if (res.headers['x-request-id'] !== REQUEST_ID) headers['x-request-id'] = '<generated>';
  if (res.status === 201) headers['content-length'] = '<length>';
  return comparable(headers) as Record<string, unknown>;
}

describe('the lean send-message route answers as the Nest route does', () => {
  let hook: FakeWebhook;
  let lean: TestApp;
  let nest: TestApp;

  beforeAll(async () => {
    hook = await startFakeWebhook();
    // RATE_LIMIT_SCALE 1: the real limits, so that one row can reach the limit of sends per minute.
    const env = { WEBHOOK_ALLOWED_HOSTS: hook.hostPort, RATE_LIMIT_SCALE: '1' };
    lean = await createTestApp(env);
    nest = await createTestApp(env, undefined, { nestSendRoute: true });
  });
  afterAll(async () => {
    await lean?.close();
    await nest?.close();
    await hook?.close();
  });

  async function world(t: TestApp): Promise<World> {
    const owner = await registerAccount(t, 'send-owner');
    const agent = await newAgent(t.app, owner, { webhook: `${hook.url}/ok` });
    const chat = await newChat(t.app, owner, { agent });
    return { t, owner, chat, hook };
  }

  async function answers(call: Row[1]) {
    const [a, b] = [await call(await world(lean)), await call(await world(nest))];
    return [a, b].map((res) => ({
      status: res.status,
      body: comparable(res.body),
      text: comparable(res.text),
      headers: headersOf(res),
    }));
  }

  it.each(rows)('%s', async (_name, call) => {
    const [leanAnswer, nestAnswer] = await answers(call);
    expect(leanAnswer).toEqual(nestAnswer);
  });

  it("compares two paths: the lean app answers without Nest's guards, the other through them", async () => {
    for (const [t, throughNest] of [
      [lean, false],
      [nest, true],
    ] as const) {
      const w = await world(t);
      const guard = t.app.get(AccessTokenGuard);
      const canActivate = jest.spyOn(guard, 'canActivate');
      const authenticate = jest.spyOn(guard, 'authenticate');
      try {
        await send(w, { content: 'hi' }).expect(201);
        expect(authenticate).toHaveBeenCalledTimes(1);
        expect(canActivate).toHaveBeenCalledTimes(throughNest ? 1 : 0);
      } finally {
        canActivate.mockRestore();
        authenticate.mockRestore();
      }
    }
  });

  it('a normal send: 201 with the message, stored before the answer, its event on the socket', async () => {
    const w = await world(lean);
    const tab = await connectSocket(lean.baseUrl, w.owner.accessToken);
    try {
      const res = await send(w, { content: '  hello  ' }).expect(201);
      expect(res.body).toMatchObject({ chatId: w.chat.id, content: 'hello', senderType: 'user' });
      const history = await request(lean.http)
        .get(`/api/chats/${w.chat.id}/messages`)
        .set(as(w.owner))
        .expect(200);
      expect(history.body.messages.map((m: { id: string }) => m.id)).toContain(res.body.id);
      await tab.waitFor('message.created', (p: { message: { id: string } }) => p.message.id === res.body.id);
    } finally {
      tab.close();
    }
  });

  it('refuses to be installed where the app applies something it does not (here: another global pipe)', () => {
    const app = lean.app as NestExpressApplication;
    const [validation] = app.get(ApplicationConfig).getGlobalPipes() as ValidationPipe[];
    expect(() => sendMessageRoute(app, validation)).not.toThrow();
    expect(() => sendMessageRoute(app, createValidationPipe())).toThrow(/update send-message.route.ts/);
  });

  it('keeps the route label of the request metrics', async () => {
    const w = await world(lean);
    const count = async () => {
      const sample = (await httpDuration.get()).values.find(
        (v) =>
          v.metricName === 'switchboard_http_request_duration_seconds_count' &&
          v.labels.route === '/api/chats/:id/messages' &&
          v.labels.method === 'POST' &&
          v.labels.status_class === '4xx',
      );
      return sample?.value ?? 0;
    };
    const before = await count();
    await send(w, { content: '' }).expect(400);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await count()).toBe(before + 1);
  });
});
