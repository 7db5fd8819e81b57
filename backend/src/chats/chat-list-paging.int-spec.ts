import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import type { BootstrapResponse } from '../contracts/bootstrap';
import type { ChatPage, ChatView } from '../contracts/chats';
import { INVALID_CHAT_CURSOR } from './chats.service';

/**
 * GET /api/chats pages by keyset on (updated_at, id), both descending (issue 13, lists at scale): a
 * page is `limit` chats (50 by default, at most 200) and an opaque `nextCursor`.
 */
describe('chat list paging (real PostgreSQL)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
  });

  const getPage = async (user: RegisteredUser, query: string, companyId = user.companyId) =>
    (await request(t.http).get(`/api/chats${query}`).set(as(user, companyId)).expect(200)).body as ChatPage;

  /** Every page of a list, following nextCursor; fails on a loop. */
  async function allPages(
    user: RegisteredUser,
    query: string,
    companyId = user.companyId,
    from: string | null = null,
  ) {
    const pages: ChatPage[] = [];
    let cursor = from;
    do {
      const page = await getPage(
        user,
        `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        companyId,
      );
      pages.push(page);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(50);
    } while (cursor);
    return pages;
  }

  /** A chat through the API (for the agent row), then `count` more by SQL, all at `at` when given. */
  async function seedChats(
    user: RegisteredUser,
    count: number,
    options: { at?: string; archived?: boolean; companyId?: string } = {},
  ): Promise<void> {
    const companyId = options.companyId ?? user.companyId;
    const first = (
      await request(t.http)
        .post('/api/chats')
        .set(as(user, companyId))
        .send({ agentId: 'default-agent', title: 'seed' })
        .expect(201)
    ).body as ChatView;
    const [{ agent_id: agentId }] = (await db.query('SELECT agent_id FROM chats WHERE id = $1', [
      first.id,
    ])) as Array<{ agent_id: string }>;
    await db.query(
      `INSERT INTO chats (user_id, company_id, agent_id, title, is_archived, updated_at)
       SELECT $1, $2, $3, 'chat ' || g, $5, COALESCE($6::timestamptz, now() - g * interval '1 millisecond')
       FROM generate_series(1, $4::int) AS g`,
      [user.userId, companyId, agentId, count, options.archived ?? false, options.at ?? null],
    );
    if (options.at || options.archived)
      await db.query(
        'UPDATE chats SET updated_at = COALESCE($2::timestamptz, updated_at), is_archived = $3 WHERE id = $1',
        [first.id, options.at ?? null, options.archived ?? false],
      );
  }

  /** The list's order as the database has it: the reference every concatenation of pages must equal. */
  const expectedIds = async (user: RegisteredUser, archived: boolean, companyId = user.companyId) =>
    (
      (await db.query(
        `SELECT id FROM chats WHERE user_id = $1 AND company_id = $2 AND is_archived = $3
         ORDER BY updated_at DESC, id DESC`,
        [user.userId, companyId, archived],
      )) as Array<{ id: string }>
    ).map((r) => r.id);

  it('pages through every chat once, newest first, in a stable order under equal updated_at', async () => {
    const user = await registerUser(t);
    // 70 chats at one and the same instant (to the microsecond) between 60 older and newer ones.
    await seedChats(user, 59);
    await seedChats(user, 69, { at: '2020-01-01T00:00:00.123456Z' });
    const pages = await allPages(user, '?archived=false&limit=50');
    expect(pages.map((p) => p.chats.length)).toEqual([50, 50, 30]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const ids = pages.flatMap((p) => p.chats.map((c) => c.id));
    expect(new Set(ids).size).toBe(130);
    expect(ids).toEqual(await expectedIds(user, false));
    // Default page size.
    expect((await getPage(user, '')).chats.map((c) => c.id)).toEqual(ids.slice(0, 50));
    // Smaller pages cut through the run of equal timestamps and still see each chat once.
    const small = await allPages(user, '?limit=7');
    expect(small.flatMap((p) => p.chats.map((c) => c.id))).toEqual(ids);
  });

  it('a chat that moves up between pages shows once, and nothing after the cursor is skipped', async () => {
    const user = await registerUser(t);
    await seedChats(user, 11);
    const first = await getPage(user, '?limit=5');
    const before = await expectedIds(user, false);
    const moving = before[8]; // on the second page, not yet loaded
    await request(t.http)
      .post(`/api/chats/${moving}/messages`)
      .set(as(user))
      .send({ content: 'move me up' })
      .expect(201);
    const rest = await allPages(user, '?limit=5', user.companyId, first.nextCursor);
    const restIds = rest.flatMap((p) => p.chats.map((c) => c.id));
    expect(restIds).toEqual(before.slice(5).filter((id) => id !== moving));
  });

  it('the Archived list pages on its own', async () => {
    const user = await registerUser(t);
    await seedChats(user, 4);
    await seedChats(user, 8, { archived: true });
    const archived = await allPages(user, '?archived=true&limit=4');
    expect(archived.map((p) => p.chats.length)).toEqual([4, 4, 1]);
    expect(archived.flatMap((p) => p.chats.map((c) => c.id))).toEqual(await expectedIds(user, true));
    expect(archived.flatMap((p) => p.chats).every((c) => c.isArchived)).toBe(true);
  });

  it('a tampered or foreign cursor, or a bad limit, is a readable 400', async () => {
    const user = await registerUser(t);
    await seedChats(user, 3);
    const { nextCursor } = await getPage(user, '?limit=2');
    expect(nextCursor).toEqual(expect.any(String));
    const text = Buffer.from(nextCursor ?? '', 'base64url').toString('utf8');
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
    const [, id] = text.split(' ');
    const bad = [
      'not-a-cursor!',
      'abc',
      b64('hello'),
      b64(`2026-02-31T10:00:00.000000Z ${id}`), // no 31 February: must not reach PostgreSQL
      b64(`0000-01-01T00:00:00.000000Z ${id}`),
      b64(`2026-01-01T25:00:00.000000Z ${id}`),
      b64(`${text.split(' ')[0]} not-a-uuid`),
      b64(`${text.split(' ')[0]} ${id.toUpperCase()}`),
      b64(`${text}'; DROP TABLE chats; --`),
      `${nextCursor}x`,
      'x'.repeat(201),
    ];
    for (const cursor of bad) {
      const res = await request(t.http)
        .get(`/api/chats?cursor=${encodeURIComponent(cursor)}`)
        .set(as(user))
        .expect(400);
      expect(res.body.message).toEqual(expect.stringMatching(/cursor/i));
    }
    const decoded = await request(t.http)
      .get(`/api/chats?cursor=${b64('hello')}`)
      .set(as(user))
      .expect(400);
    expect(decoded.body.message).toBe(INVALID_CHAT_CURSOR);
    const twice = await request(t.http).get('/api/chats?cursor=a&cursor=b').set(as(user)).expect(400);
    expect(twice.body.message).toBe('Invalid cursor');
    for (const limit of ['0', '201', 'abc', '1.5', '-1']) {
      const res = await request(t.http).get(`/api/chats?limit=${limit}`).set(as(user)).expect(400);
      expect(res.body.message).toMatch(/limit must be/);
    }
    // The largest page is allowed.
    expect((await getPage(user, '?limit=200')).chats).toHaveLength(4);
  });

  it("never shows another user's or another company's chats, whatever the cursor", async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    await seedChats(alice, 9);
    await seedChats(bob, 9);
    // Alice's second company: its chats stay out of her first company's list, and the reverse.
    const second = (
      await request(t.http)
        .post('/api/companies')
        .set({ Authorization: `Bearer ${alice.accessToken}` })
        .send({ name: 'Second Company' })
        .expect(201)
    ).body as { id: string };
    await seedChats(alice, 4, { companyId: second.id });

    const aliceIds = (await allPages(alice, '?limit=3')).flatMap((p) => p.chats);
    expect(aliceIds.map((c) => c.id)).toEqual(await expectedIds(alice, false));
    expect(aliceIds.every((c) => c.companyId === alice.companyId)).toBe(true);
    const inSecond = (await allPages(alice, '?limit=3', second.id)).flatMap((p) => p.chats);
    expect(inSecond.map((c) => c.id)).toEqual(await expectedIds(alice, false, second.id));
    expect(inSecond).toHaveLength(5);

    // Alice's cursor handed to Bob is only a position: it pages through Bob's own chats.
    const aliceCursor = (await getPage(alice, '?limit=3')).nextCursor ?? '';
    const bobPages = await allPages(bob, '?limit=50', bob.companyId, aliceCursor);
    const bobIds = new Set(await expectedIds(bob, false));
    for (const chat of bobPages.flatMap((p) => p.chats)) expect(bobIds.has(chat.id)).toBe(true);
    // Bob in Alice's company: not a member.
    await request(t.http).get('/api/chats').set(as(bob, alice.companyId)).expect(404);
  });

  it("GET /api/bootstrap holds the Active list's first page and its cursor", async () => {
    const user = await registerUser(t);
    await seedChats(user, 59);
    const boot = (
      await request(t.http)
        .get('/api/bootstrap?chat=true')
        .set({ Authorization: `Bearer ${user.accessToken}` })
        .expect(200)
    ).body as BootstrapResponse;
    const first = await getPage(user, '?archived=false');
    expect(boot.chat?.activeChats).toEqual(first.chats);
    expect(boot.chat?.activeChatsCursor).toBe(first.nextCursor);
    expect(first.chats).toHaveLength(50);
    const second = await getPage(user, `?cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.chats).toHaveLength(10);
  });
});
