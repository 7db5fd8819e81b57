import { Logger } from '@nestjs/common';
import request from 'supertest';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newChat, newMessage, setSuperadmin } from '../../test/factories';
import { type EventLog, useSockets } from '../../test/realtime.test-util';
import { AgentsService } from '../agents/agents.service';
import { SessionsService } from '../auth/sessions.service';
import { ChatsService } from '../chats/chats.service';
import type { BootstrapResponse } from '../contracts/bootstrap';
import type { ChatView } from '../contracts/chats';
import type { PlatformAppearance } from '../contracts/platform-appearance';
import type { SyncMarkers } from '../contracts/realtime-events';

/**
 * The catch-up after a socket connects: a page loads its first data over HTTP, then connects with the
 * versions of that data; a change made in between is named by one `sync.stale`, and nothing is sent
 * when nothing changed. Real PostgreSQL and Redis; every change goes through the code path the app uses.
 */
describe('socket catch-up (markers in the handshake, real PostgreSQL)', () => {
  let t: TestApp;
  const openSocket = useSockets();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** What a chat page loads first: the bootstrap with the chat screen, and the appearance. */
  async function loadPage(user: RegisteredUser): Promise<SyncMarkers> {
    const boot = await request(t.http)
      .get(`/api/bootstrap?chat=true&companyId=${user.companyId}`)
      .set(as(user, null))
      .expect(200);
    const { chat } = boot.body as BootstrapResponse;
    if (!chat) throw new Error('no chat screen in the bootstrap');
    const appearance = await request(t.http).get('/api/appearance').expect(200);
    return {
      chat: { companyId: chat.companyId, version: chat.version },
      appearance: (appearance.body as PlatformAppearance).updatedAt,
    };
  }

  const connect = (user: RegisteredUser, markers: unknown) =>
    openSocket(t.baseUrl, user.accessToken, { markers });

  /**
   * Nothing but `chat.updated` arrives: a rename made once the catch-up has had time to run, whose event
   * follows any `sync.stale` on the same socket (one socket's packets keep their order).
   */
  async function expectNoCatchUp(user: RegisteredUser, log: EventLog, chat: ChatView): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await request(t.http).patch(`/api/chats/${chat.id}`).set(as(user)).send({ title: 'later' }).expect(200);
    await log.waitFor('chat.updated');
    expect(log.events.map((e) => e.event)).toEqual(['chat.updated']);
  }

  /** A user with a chat and their default agent, whose first page load has been made once. */
  async function userWithChat(): Promise<{ user: RegisteredUser; chat: ChatView }> {
    const user = await registerUser(t);
    const scope = { userId: user.userId, companyId: user.companyId };
    const chat = await newChat(t.app, scope, { messages: 1 });
    return { user, chat };
  }

  it('sends nothing when nothing changed between the page load and the connection', async () => {
    const { user, chat } = await userWithChat();
    const log = await connect(user, await loadPage(user));
    await expectNoCatchUp(user, log, chat);
  });

  type Change = (user: RegisteredUser, chat: ChatView) => Promise<unknown>;
  const scopeOf = (user: RegisteredUser) => ({ userId: user.userId, companyId: user.companyId });
  const agents = () => t.app.get(AgentsService);
  const chats = () => t.app.get(ChatsService);
  const customAgent = (user: RegisteredUser) =>
    agents().createForCompany(scopeOf(user), { name: 'Helper', description: 'Custom agent' });

  const CHAT_CHANGES: Record<string, { before?: Change; change: Change }> = {
    'an agent created': { change: (user) => customAgent(user) },
    'an agent renamed': {
      before: (user) => customAgent(user),
      change: async (user) => {
        const [agent] = (await agents().list(scopeOf(user))).filter((a) => !a.isDefault);
        await agents().update(scopeOf(user), agent.id, { name: 'Renamed' });
      },
    },
    'an agent deactivated': {
      before: (user) => customAgent(user),
      change: async (user) => {
        const [agent] = (await agents().list(scopeOf(user))).filter((a) => !a.isDefault);
        await agents().update(scopeOf(user), agent.id, { isActive: false });
      },
    },
    'an agent deleted': {
      before: (user) => customAgent(user),
      change: async (user) => {
        const [agent] = (await agents().list(scopeOf(user))).filter((a) => !a.isDefault);
        await agents().remove(scopeOf(user), agent.id);
      },
    },
    'a chat created': {
      change: (user) =>
        request(t.http)
          .post('/api/chats')
          .set(as(user))
          .send({ agentId: 'default-agent', title: 'New' })
          .expect(201),
    },
    'a chat renamed': {
      change: (user, chat) =>
        request(t.http).patch(`/api/chats/${chat.id}`).set(as(user)).send({ title: 'Renamed' }).expect(200),
    },
    'a chat archived': {
      change: (user, chat) =>
        request(t.http).patch(`/api/chats/${chat.id}`).set(as(user)).send({ isArchived: true }).expect(200),
    },
    'a chat deleted': {
      change: (user, chat) => request(t.http).delete(`/api/chats/${chat.id}`).set(as(user)).expect(204),
    },
    'a user message stored': {
      change: (user, chat) => chats().send(scopeOf(user), chat.id, 'one more'),
    },
    // The reply's job and an agent's callback store it through this; a stream that ends does too.
    'an agent reply stored': {
      before: (user, chat) => newMessage(t.app, scopeOf(user), chat.id, { replyStatus: 'pending' }),
      change: async (user, chat) => {
        const [waiting] = (await chats().messages(scopeOf(user), chat.id, {})).messages.slice(-1);
        expect(await chats().storeReply(waiting.id, 'an answer')).toBe(true);
      },
    },
    // The chat row does not change: the pending reply it no longer has does.
    'an agent reply failed': {
      before: (user, chat) => newMessage(t.app, scopeOf(user), chat.id, { replyStatus: 'pending' }),
      change: async (user, chat) => {
        const [waiting] = (await chats().messages(scopeOf(user), chat.id, {})).messages.slice(-1);
        await chats().failReply(waiting.id, 'no answer', 'timeout');
      },
    },
  };

  it.each(Object.entries(CHAT_CHANGES))(
    'names the chat topic after %s',
    async (_name, { before, change }) => {
      const { user, chat } = await userWithChat();
      await before?.(user, chat);
      const markers = await loadPage(user);
      await change(user, chat);
      const log = await connect(user, markers);
      expect(await log.waitFor('sync.stale')).toEqual({ topics: ['chat'] });
      expect(log.events.filter((e) => e.event === 'sync.stale')).toHaveLength(1);
    },
  );

  it('names the chat topic while a reply is awaited (its streamed text is not in the database)', async () => {
    const { user, chat } = await userWithChat();
    await newMessage(t.app, scopeOf(user), chat.id, { replyStatus: 'pending' });
    const log = await connect(user, await loadPage(user));
    expect(await log.waitFor('sync.stale')).toEqual({ topics: ['chat'] });
  });

  it('still answers when the room recheck beside it fails', async () => {
    const { user } = await userWithChat();
    const markers = await loadPage(user);
    await customAgent(user);
    const sessions = t.app.get(SessionsService);
    const real = sessions.liveMemberships.bind(sessions);
    // The handshake's session check passes; the recheck's, once the socket is in its rooms, fails.
    const check = jest
      .spyOn(sessions, 'liveMemberships')
      .mockImplementationOnce(real)
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const log = await connect(user, markers);
      expect(await log.waitFor('sync.stale')).toEqual({ topics: ['chat'] });
      expect(check).toHaveBeenCalledTimes(2);
    } finally {
      check.mockRestore();
      warn.mockRestore();
    }
  });

  it('names the appearance after a superadmin saved it', async () => {
    const { user, chat } = await userWithChat();
    const admin = await registerUser(t);
    await setSuperadmin(t.app, admin.userId);
    const markers = await loadPage(user);
    await request(t.http)
      .put('/api/admin/settings')
      .set(as(admin, null))
      .send({ logoUrl: null, faviconUrl: null, accentColor: `#${String(Date.now() % 1e6).padStart(6, '0')}` })
      .expect(200);
    const log = await connect(user, markers);
    expect(await log.waitFor('sync.stale')).toEqual({ topics: ['appearance'] });
    // Only what was sent is answered for: a tab that sent no markers gets nothing.
    const plain = await connect(user, undefined);
    await expectNoCatchUp(user, plain, chat);
  });

  it("ignores markers for a company the user is not a member of, and another user's changes", async () => {
    const { user, chat } = await userWithChat();
    const other = await userWithChat();
    const theirs = await loadPage(other.user);
    const mine = await loadPage(user);
    // The other user's company changes; this user asks about it with the other's (or a made-up) version.
    await request(t.http)
      .post('/api/chats')
      .set(as(other.user))
      .send({ agentId: 'default-agent', title: 'Theirs' })
      .expect(201);
    const log = await connect(user, { chat: theirs.chat, appearance: mine.appearance });
    await expectNoCatchUp(user, log, chat);
    const guessed = await connect(user, {
      chat: { companyId: other.user.companyId, version: 'x' },
      appearance: mine.appearance,
    });
    await expectNoCatchUp(user, guessed, chat);
  });

  it.each<[string, unknown]>([
    ['a string', 'chat'],
    ['an array', [{ companyId: 'x' }]],
    ['a company id that is not one', { chat: { companyId: "1' OR '1'='1", version: 'v' } }],
    [
      'a version that is an object',
      { chat: { companyId: '00000000-0000-4000-8000-000000000000', version: {} } },
    ],
    ['an overlong version', { appearance: 'x'.repeat(10_000) }],
    ['a number', 42],
  ])('connects and sends nothing for markers that are %s', async (_name, markers) => {
    const { user, chat } = await userWithChat();
    const log = await connect(user, markers);
    await expectNoCatchUp(user, log, chat);
  });

  it('answers a malformed part by ignoring it and still answers the well-formed one', async () => {
    const { user } = await userWithChat();
    const { chat } = await loadPage(user);
    await customAgent(user);
    const log = await connect(user, { chat, appearance: 12 });
    expect(await log.waitFor('sync.stale')).toEqual({ topics: ['chat'] });
  });
});
