import jwt from 'jsonwebtoken';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { createFreshDatabase, createTestApp, type TestApp } from '../../test/app.test-util';
import {
  type Account,
  nextClientAddress,
  registerAccount,
  revokeSession,
  TINY_PNG,
} from '../../test/identities.test-util';
import { isSuperadmin, newMembership } from '../../test/factories';
import { startFakeWebhook, type FakeWebhook } from '../../test/realtime.test-util';
import { SocketServerRef } from '../realtime/socket-server.ref';
import {
  type Fixtures,
  HTTP_ACCESS,
  IDENTITIES,
  IDENTITY_NOTES,
  type Identity,
  type RouteAccess,
  SOCKET_CONNECT,
  SOCKET_EVENTS,
} from '../../test/security/access-matrix';
import {
  discoverHttpRoutes,
  discoverSocketEvents,
  missingEntries,
  staleEntries,
} from '../../test/security/route-discovery';

/** The owner goes last: a refused call must leave the owner's objects as they were, and the owner's
 *  own call (a delete) then proves they were still there. */
const WALK_ORDER: Identity[] = [...IDENTITIES.filter((i) => i !== 'owner'), 'owner'];

interface Observed {
  route: string;
  identity: Identity;
  expected: number;
  actual: number;
  body: unknown;
}

describe('authorization matrix (every registered route and socket event × every identity)', () => {
  let t: TestApp;
  let fresh: Awaited<ReturnType<typeof createFreshDatabase>>;
  let hook: FakeWebhook;
  let routes: string[];
  let socketEvents: string[];
  const accounts = {} as Record<
    'member' | 'admin' | 'owner' | 'otherCompany' | 'superadmin' | 'revoked',
    Account
  >;
  const tokens = {} as Record<Identity, string | null>;
  let fixtures: Fixtures;
  let fileId: string;
  let uniqueCounter = 0;
  const openSockets: Socket[] = [];

  const ownerHeaders = () => ({
    Authorization: `Bearer ${accounts.owner.accessToken}`,
    'X-Company-Id': accounts.owner.companyId,
    'X-Forwarded-For': nextClientAddress(),
  });

  async function makeFixtures(): Promise<Fixtures> {
    const agent = await request(t.http)
      .post('/api/agents')
      .set(ownerHeaders())
      .send({ name: 'Owner agent', webhook: `${hook.url}/ok`, elevenlabsAgentId: 'matrix-voice-agent' });
    if (agent.status !== 201) throw new Error(`agent: ${agent.status} ${JSON.stringify(agent.body)}`);
    const first = await request(t.http)
      .post('/api/messages')
      .set(ownerHeaders())
      .send({ agentId: agent.body.id, content: 'the owner speaks' });
    if (first.status !== 201) throw new Error(`first message: ${first.status} ${JSON.stringify(first.body)}`);
    // Voice calls into that chat: one whose transcript the walk saves turns under, one the walk ends.
    const startCall = () =>
      request(t.http)
        .post('/api/voice/sessions')
        .set(ownerHeaders())
        .send({ agentId: agent.body.id, chatId: first.body.chat.id });
    const calls = [await startCall(), await startCall()];
    for (const call of calls)
      if (call.status !== 201) throw new Error(`voice call: ${call.status} ${JSON.stringify(call.body)}`);
    const voiceTurn = await request(t.http)
      .post('/api/voice/transcripts')
      .set(ownerHeaders())
      .send({
        callId: calls[0].body.callId,
        chatId: first.body.chat.id,
        role: 'agent',
        text: 'the agent speaks in a call',
        conversationId: 'matrix-conversation',
        eventId: `fixture-${++uniqueCounter}`,
      });
    if (voiceTurn.status !== 201)
      throw new Error(`voice turn: ${voiceTurn.status} ${JSON.stringify(voiceTurn.body)}`);
    // A pending invitation, and a member who joined through another one (as people join).
    const invite = (email: string) =>
      request(t.http).post('/api/company/invitations').set(ownerHeaders()).send({ email, role: 'user' });
    const pending = await invite(`matrix-pending-${process.pid}-${++uniqueCounter}@example.com`);
    if (pending.status !== 201)
      throw new Error(`invitation: ${pending.status} ${JSON.stringify(pending.body)}`);
    const memberEmail = `matrix-member-${process.pid}-${++uniqueCounter}@example.com`;
    const joining = await invite(memberEmail);
    if (joining.status !== 201)
      throw new Error(`invitation: ${joining.status} ${JSON.stringify(joining.body)}`);
    const joined = await request(t.http)
      .post('/api/auth/register-invited')
      .set('X-Forwarded-For', nextClientAddress())
      .send({
        token: new URL(joining.body.link as string).searchParams.get('token'),
        firstName: 'Matrix',
        lastName: 'Member',
        password: 'correct horse battery',
      });
    if (joined.status !== 201)
      throw new Error(`register-invited: ${joined.status} ${JSON.stringify(joined.body)}`);
    const spare = await request(t.http)
      .post('/api/companies')
      .set(ownerHeaders())
      .send({ name: `Spare ${++uniqueCounter}` });
    if (spare.status !== 201) throw new Error(`spare company: ${spare.status} ${JSON.stringify(spare.body)}`);
    const domain = await request(t.http)
      .post('/api/company/sso/domains')
      .set(ownerHeaders())
      .send({ domain: `matrix-${process.pid}-${++uniqueCounter}.example.com` });
    if (domain.status !== 201) throw new Error(`sso domain: ${domain.status} ${JSON.stringify(domain.body)}`);
    await t.drain();
    const deliveries = await request(t.http).get('/api/company/deliveries').set(ownerHeaders());
    const delivery = (
      deliveries.body as { deliveries?: Array<{ id: string; messageId: string }> }
    ).deliveries?.find((d) => d.messageId === first.body.message.id);
    if (!delivery) throw new Error(`delivery: ${deliveries.status} ${JSON.stringify(deliveries.body)}`);
    return {
      deliveryId: delivery.id,
      companyId: accounts.owner.companyId,
      ssoDomainId: domain.body.id as string,
      memberEmail,
      spareCompanyId: spare.body.id as string,
      invitationId: pending.body.invitation.id as string,
      memberUserId: joined.body.user.id as string,
      agentId: agent.body.id as string,
      chatId: first.body.chat.id as string,
      messageId: first.body.message.id as string,
      messageSeq: first.body.message.seq as string,
      voiceMessageId: voiceTurn.body.id as string,
      voiceCallId: calls[0].body.callId as string,
      endedVoiceCallId: calls[1].body.callId as string,
      fileId,
      webhookUrl: `${hook.url}/ok`,
      unique: () => `matrix-${process.pid}-${++uniqueCounter}`,
    };
  }

  function headersFor(identity: Identity, companyId = accounts.owner.companyId): Record<string, string> {
    const headers: Record<string, string> = {
      'X-Company-Id': companyId,
      'X-Forwarded-For': nextClientAddress(),
      // As a browser on the app's own origin sends it.
      Origin: t.config.appOrigin,
    };
    const token = tokens[identity];
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  async function call(key: string, access: RouteAccess, identity: Identity, companyId?: string) {
    const [method, pattern] = key.split(' ');
    const spec = access.call?.(fixtures) ?? {};
    const path = pattern.replace(/:(\w+)/g, (_m, name: string) => {
      const value = spec.params?.[name];
      if (value === undefined) throw new Error(`${key}: no value for :${name} in its call()`);
      return encodeURIComponent(value);
    });
    let req = request(t.http)[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put'](path);
    req = req.set(headersFor(identity, companyId));
    if (spec.query) req = req.query(spec.query);
    if (spec.image) return req.attach('file', TINY_PNG, { filename: 'a.png', contentType: 'image/png' });
    if (spec.body) return req.send(spec.body);
    return req;
  }

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    hook = await startFakeWebhook();
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: hook.hostPort, WEBHOOK_TIMEOUT_MS: '2000' }, fresh.url);
    // The first account of a fresh installation is the superadmin.
    accounts.superadmin = await registerAccount(t, 'superadmin');
    accounts.owner = await registerAccount(t, 'owner');
    accounts.member = await registerAccount(t, 'member');
    accounts.admin = await registerAccount(t, 'admin');
    accounts.otherCompany = await registerAccount(t, 'outsider');
    accounts.revoked = await registerAccount(t, 'revoked');
    expect(await isSuperadmin(t.app, accounts.superadmin.userId)).toBe(true);
    expect(await isSuperadmin(t.app, accounts.owner.userId)).toBe(false);
    await newMembership(t.app, accounts.owner, accounts.member, 'user');
    await newMembership(t.app, accounts.owner, accounts.admin, 'admin');
    await newMembership(t.app, accounts.owner, accounts.revoked, 'user');
    await revokeSession(t, accounts.revoked);
    Object.assign(tokens, {
      signedOut: null,
      garbageToken: 'garbage.token.value',
      revokedSession: accounts.revoked.accessToken,
      member: accounts.member.accessToken,
      admin: accounts.admin.accessToken,
      owner: accounts.owner.accessToken,
      otherCompany: accounts.otherCompany.accessToken,
      superadmin: accounts.superadmin.accessToken,
    });
    const avatar = await request(t.http).post('/api/me/avatar').set(ownerHeaders()).attach('file', TINY_PNG, {
      filename: 'a.png',
      contentType: 'image/png',
    });
    if (avatar.status !== 201) throw new Error(`avatar: ${avatar.status} ${JSON.stringify(avatar.body)}`);
    fileId = String(avatar.body.avatar).split('/').pop() as string;
    fixtures = await makeFixtures();
    routes = discoverHttpRoutes(t.app);
    socketEvents = discoverSocketEvents(t.app);
  });

  afterEach(() => {
    while (openSockets.length) openSockets.pop()?.close();
  });

  afterAll(async () => {
    await t?.close();
    await hook?.close();
    await fresh?.drop();
  });

  describe('the table covers the app', () => {
    it('has an entry for every HTTP route Nest registered, and none for a route that is gone', () => {
      expect(routes.length).toBeGreaterThan(20);
      expect({ routesWithoutAnEntry: missingEntries(routes, HTTP_ACCESS) }).toEqual({
        routesWithoutAnEntry: [],
      });
      expect({ entriesWithoutARoute: staleEntries(routes, HTTP_ACCESS) }).toEqual({
        entriesWithoutARoute: [],
      });
    });

    it('has an entry for every socket event a gateway subscribes to', () => {
      expect({ eventsWithoutAnEntry: missingEntries(socketEvents, SOCKET_EVENTS) }).toEqual({
        eventsWithoutAnEntry: [],
      });
      expect({ entriesWithoutAnEvent: staleEntries(socketEvents, SOCKET_EVENTS) }).toEqual({
        entriesWithoutAnEvent: [],
      });
    });

    it('would fail for a route or event added without an entry', () => {
      const listed = Object.keys(HTTP_ACCESS);
      expect(missingEntries([...listed, 'POST /api/invitations'], HTTP_ACCESS)).toEqual([
        'POST /api/invitations',
      ]);
      expect(staleEntries(listed.slice(1), HTTP_ACCESS)).toEqual([listed[0]]);
      const events = Object.keys(SOCKET_EVENTS);
      expect(missingEntries([...events, 'RealtimeGateway: chat.join'], SOCKET_EVENTS)).toEqual([
        'RealtimeGateway: chat.join',
      ]);
    });
  });

  it('answers every route as its entry says, for every identity', async () => {
    const observed: Observed[] = [];
    for (const route of routes) {
      const access = HTTP_ACCESS[route];
      if (!access) continue; // reported by the coverage test
      if (access.consumesFixtures) fixtures = await makeFixtures();
      for (const identity of WALK_ORDER) {
        const res = await call(route, access, identity);
        if (access.consumesFixtures && res.status < 300) fixtures = await makeFixtures();
        observed.push({
          route,
          identity,
          expected: access.expect[identity],
          actual: res.status,
          body: res.body,
        });
      }
      await t.drain();
      if (access.consumesFixtures) fixtures = await makeFixtures();
    }
    printMatrix(observed);
    const wrong = observed
      .filter((o) => o.actual !== o.expected)
      .map(
        (o) =>
          `${o.route} as ${o.identity}: expected ${o.expected}, got ${o.actual} ${JSON.stringify(o.body)}`,
      );
    expect(wrong).toEqual([]);
  });

  it("refuses the owner's objects to outsiders who name their own company instead", async () => {
    const wrong: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const access = HTTP_ACCESS[route];
      if (!access?.ownerObject) continue;
      if (access.consumesFixtures) fixtures = await makeFixtures();
      for (const identity of ['otherCompany', 'superadmin'] as const) {
        const res = await call(route, access, identity, accounts[identity].companyId);
        calls += 1;
        if (res.status !== 404) wrong.push(`${route} as ${identity} in own company: ${res.status}`);
      }
      const stillThere = await request(t.http)
        .get(`/api/chats/${fixtures.chatId}/messages`)
        .set(ownerHeaders())
        .expect(200);
      expect(stillThere.body.messages.length).toBeGreaterThan(0);
    }
    expect(calls).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it('refuses forged, expired and foreign tokens on every private route', async () => {
    const claims = jwt.decode(accounts.owner.accessToken) as jwt.JwtPayload;
    const { sub, sid, aud, iss } = claims;
    const now = Math.floor(Date.now() / 1000);
    const secret = t.config.jwtSecret;
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const forged: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub, sid, aud, iss, iat: now, exp: now + 600 })}.`,
      'another key': jwt.sign({ sid }, 'another-secret-that-is-long-enough-0123456789', {
        subject: sub,
        audience: aud,
        issuer: iss,
        expiresIn: 600,
      }),
      expired: jwt.sign({ sid, exp: now - 60 }, secret, { subject: sub, audience: aud, issuer: iss }),
      'no expiry': jwt.sign({ sid }, secret, { subject: sub, audience: aud, issuer: iss }),
      'another audience': jwt.sign({ sid }, secret, {
        subject: sub,
        audience: 'x',
        issuer: iss,
        expiresIn: 600,
      }),
      HS512: jwt.sign({ sid }, secret, {
        subject: sub,
        audience: aud,
        issuer: iss,
        expiresIn: 600,
        algorithm: 'HS512',
      }),
    };
    const wrong: string[] = [];
    let calls = 0;
    try {
      for (const route of routes) {
        const access = HTTP_ACCESS[route];
        if (!access || access.expect.signedOut !== 401) continue;
        for (const [name, token] of Object.entries(forged)) {
          tokens.garbageToken = token;
          const res = await call(route, access, 'garbageToken');
          calls += 1;
          if (res.status !== 401) wrong.push(`${route} with a token (${name}): ${res.status}`);
        }
      }
    } finally {
      tokens.garbageToken = 'garbage.token.value';
    }
    expect(calls).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  describe('sockets', () => {
    const connect = (identity: Identity) =>
      new Promise<{ socket: Socket; connected: boolean }>((resolve) => {
        const token = tokens[identity];
        const socket = io(t.baseUrl, {
          auth: token ? { token } : {},
          transports: ['websocket'],
          reconnection: false,
          timeout: 5000,
        });
        openSockets.push(socket);
        socket.once('connect', () => resolve({ socket, connected: true }));
        socket.once('connect_error', () => resolve({ socket, connected: false }));
      });

    it('lets only live sessions connect', async () => {
      const outcome: Record<string, string> = {};
      for (const identity of IDENTITIES) {
        const { connected } = await connect(identity);
        outcome[identity] = connected ? 'connects' : 'refused';
      }
      expect(outcome).toEqual(SOCKET_CONNECT);
    });

    it('answers subscribed events as their entries say, for every identity', async () => {
      const wrong: string[] = [];
      for (const event of socketEvents) {
        const access = SOCKET_EVENTS[event];
        if (!access) continue;
        const name = event.slice(event.indexOf(': ') + 2);
        for (const identity of WALK_ORDER) {
          const { socket, connected } = await connect(identity);
          let outcome: 'handled' | 'refused' = 'refused';
          if (connected) {
            const ack = await socket
              .timeout(1000)
              .emitWithAck(name, access.payload(fixtures))
              .catch(() => null);
            const failed = ack === null || (typeof ack === 'object' && 'error' in (ack as object));
            outcome = failed ? 'refused' : 'handled';
          }
          if (outcome !== access.expect[identity]) wrong.push(`${event} as ${identity}: ${outcome}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('ignores events no gateway subscribes to: no answer, no room joined', async () => {
      const ref = t.app.get(SocketServerRef);
      const attempts = [
        ['join', { room: `company:${accounts.owner.companyId}:managers` }],
        ['subscribe', `user:${accounts.owner.userId}`],
        ['message.created', { chatId: fixtures.chatId, content: 'forged' }],
        ['chat.deleted', { companyId: accounts.owner.companyId, chatId: fixtures.chatId }],
        ['agent.deleted', { companyId: accounts.owner.companyId, agentId: fixtures.agentId }],
      ] as const;
      for (const identity of ['member', 'admin', 'otherCompany', 'superadmin'] as const) {
        const { socket, connected } = await connect(identity);
        expect(connected).toBe(true);
        const serverSocket = ref.server?.sockets.sockets.get(socket.id as string);
        const roomsBefore = [...(serverSocket?.rooms ?? [])].sort();
        const acks = await Promise.all(
          attempts.map(([event, payload]) =>
            socket
              .timeout(300)
              .emitWithAck(event, payload)
              .catch(() => 'no answer'),
          ),
        );
        expect(acks).toEqual(attempts.map(() => 'no answer'));
        expect([...(serverSocket?.rooms ?? [])].sort()).toEqual(roomsBefore);
        expect(socket.connected).toBe(true);
      }
      const owner = await request(t.http)
        .get(`/api/chats/${fixtures.chatId}`)
        .set(ownerHeaders())
        .expect(200);
      expect(owner.body.id).toBe(fixtures.chatId);
    });

    it("sends the owner's chat events to the owner only", async () => {
      const received: Partial<Record<Identity, string[]>> = {};
      const sockets: Array<[Identity, Socket]> = [];
      for (const identity of ['member', 'admin', 'owner', 'otherCompany', 'superadmin'] as const) {
        const { socket } = await connect(identity);
        received[identity] = [];
        socket.onAny((event: string, payload: unknown) =>
          received[identity]?.push(`${event} ${JSON.stringify(payload)}`),
        );
        sockets.push([identity, socket]);
      }
      await new Promise((r) => setTimeout(r, 50));
      const first = await request(t.http)
        .post('/api/messages')
        .set(ownerHeaders())
        .send({ agentId: fixtures.agentId, content: 'only for the owner' })
        .expect(201);
      await t.drain();
      const chatId = first.body.chat.id as string;
      const deadline = Date.now() + 5000;
      while (
        !received.owner?.some((e) => e.startsWith('message.created') && e.includes('pong:')) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      expect(received.owner?.some((e) => e.includes(chatId))).toBe(true);
      for (const identity of ['member', 'admin', 'otherCompany', 'superadmin'] as const) {
        expect({ identity, events: received[identity]?.filter((e) => e.includes(chatId)) }).toEqual({
          identity,
          events: [],
        });
      }
    });
  });

  function printMatrix(observed: Observed[]): void {
    const routeNames = [...new Set(observed.map((o) => o.route))];
    const width = Math.max(...routeNames.map((r) => r.length));
    const head = `${'route'.padEnd(width)} | ${'rule'.padEnd(22)} | ${WALK_ORDER.map((i) => i.slice(0, 8).padEnd(8)).join(' ')}`;
    const lines = routeNames.map((route) => {
      const cells = WALK_ORDER.map((identity) => {
        const o = observed.find((x) => x.route === route && x.identity === identity) as Observed;
        return (o.actual === o.expected ? String(o.actual) : `${o.actual}!=${o.expected}`).padEnd(8);
      });
      return `${route.padEnd(width)} | ${HTTP_ACCESS[route].rule.padEnd(22)} | ${cells.join(' ')}`;
    });
    const legend = WALK_ORDER.map((i) => `${i}: ${IDENTITY_NOTES[i]}`).join('; ');
    console.log(
      [
        `authorization matrix: ${routeNames.length} routes × ${WALK_ORDER.length} identities = ${observed.length} calls; ` +
          `${socketEvents.length} socket events; ${IDENTITIES.length} socket handshakes`,
        legend,
        head,
        ...lines,
      ].join('\n'),
    );
  }
});
