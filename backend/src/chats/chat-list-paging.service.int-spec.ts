import { DataSource } from 'typeorm';
import type { TestUser } from '../../test/factories';
import { forgedKeysetCursors } from '../../test/cursors';
import { useServiceContext } from '../../test/service-context';
import { BootstrapService } from '../bootstrap/bootstrap.service';
import type { OwnerScope } from '../common/company-scope';
import type { ChatPage } from '../contracts/chats';
import { ChatEntity } from './chat.entity';
import { ChatsService, INVALID_CHAT_CURSOR } from './chats.service';

/**
 * The chat list pages by keyset on (updated_at, id), both descending: a page is `limit` chats (50 by
 * default) and an opaque `nextCursor`. What the query string may hold is checked in chats.int-spec.ts.
 */
describe('chat list paging (ChatsService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let chats: ChatsService;
  beforeAll(() => (chats = ctx.get(ChatsService)));

  type ListQuery = { archived?: boolean; limit?: number; cursor?: string };

  /** Every page of a list, following nextCursor from `from`; fails on a loop. */
  async function allPages(scope: OwnerScope, query: ListQuery, from: string | null = null) {
    const pages: ChatPage[] = [];
    let cursor = from;
    do {
      const page = await chats.list(scope, { ...query, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(50);
    } while (cursor);
    return pages;
  }
  const idsOf = (pages: ChatPage[]) => pages.flatMap((p) => p.chats.map((c) => c.id));

  /** `count` chats, all last touched at `updatedAt` when given (a run of equal timestamps). */
  async function seedChats(
    scope: OwnerScope,
    count: number,
    options: { updatedAt?: Date; archived?: boolean } = {},
  ): Promise<void> {
    for (let i = 1; i <= count; i++) await ctx.newChat(scope, { title: `chat ${i}`, ...options });
  }

  /** The list's order as the database sorts it: the reference every concatenation of pages must equal. */
  const expectedIds = async (scope: OwnerScope, archived: boolean) =>
    (
      await ctx
        .get(DataSource)
        .getRepository(ChatEntity)
        .find({
          where: { userId: scope.userId, companyId: scope.companyId, isArchived: archived },
          order: { updatedAt: 'DESC', id: 'DESC' },
        })
    ).map((chat) => chat.id);

  it('pages through every chat once, newest first, in a stable order under equal updated_at', async () => {
    const me = await ctx.newMember();
    // 70 chats at one and the same instant between 60 older and newer ones.
    await seedChats(me, 60);
    await seedChats(me, 70, { updatedAt: new Date('2020-01-01T00:00:00.123Z') });
    const pages = await allPages(me, { archived: false, limit: 50 });
    expect(pages.map((p) => p.chats.length)).toEqual([50, 50, 30]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const ids = idsOf(pages);
    expect(new Set(ids).size).toBe(130);
    expect(ids).toEqual(await expectedIds(me, false));
    // Default page size.
    expect((await chats.list(me, {})).chats.map((c) => c.id)).toEqual(ids.slice(0, 50));
    // Smaller pages cut through the run of equal timestamps and still see each chat once.
    expect(idsOf(await allPages(me, { limit: 7 }))).toEqual(ids);
  });

  it('a chat that moves up between pages shows once, and nothing after the cursor is skipped', async () => {
    const me = await ctx.newMember();
    await seedChats(me, 12);
    const first = await chats.list(me, { limit: 5 });
    const before = await expectedIds(me, false);
    const moving = before[8]; // on the second page, not yet loaded
    await chats.send(me, moving, 'move me up');
    const rest = idsOf(await allPages(me, { limit: 5 }, first.nextCursor));
    expect(rest).toEqual(before.slice(5).filter((id) => id !== moving));
  });

  it('the Archived list pages on its own', async () => {
    const me = await ctx.newMember();
    await seedChats(me, 5);
    await seedChats(me, 9, { archived: true });
    const archived = await allPages(me, { archived: true, limit: 4 });
    expect(archived.map((p) => p.chats.length)).toEqual([4, 4, 1]);
    expect(idsOf(archived)).toEqual(await expectedIds(me, true));
    expect(archived.flatMap((p) => p.chats).every((c) => c.isArchived)).toBe(true);
  });

  it('refuses a cursor it did not write, before PostgreSQL sees it', async () => {
    const me = await ctx.newMember();
    await seedChats(me, 3);
    const { nextCursor } = await chats.list(me, { limit: 2 });
    expect(nextCursor).toEqual(expect.any(String));
    for (const cursor of forgedKeysetCursors(nextCursor ?? '')) {
      await expect(chats.list(me, { cursor })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: INVALID_CHAT_CURSOR,
      });
    }
    // The largest page the route allows.
    expect((await chats.list(me, { limit: 200 })).chats).toHaveLength(3);
  });

  it("never shows another user's or another company's chats, whatever the cursor", async () => {
    const aliceUser: TestUser = await ctx.newUser();
    const alice = await ctx.newCompany(aliceUser);
    const bob = await ctx.newMember();
    await seedChats(alice, 9);
    await seedChats(bob, 9);
    // Alice's second company: its chats stay out of her first company's list, and the reverse.
    const second = await ctx.newCompany(aliceUser, 'Second Company');
    await seedChats(second, 5);

    const inFirst = (await allPages(alice, { limit: 3 })).flatMap((p) => p.chats);
    expect(inFirst.map((c) => c.id)).toEqual(await expectedIds(alice, false));
    expect(inFirst).toHaveLength(9);
    expect(inFirst.every((c) => c.companyId === alice.companyId)).toBe(true);
    const inSecond = (await allPages(second, { limit: 3 })).flatMap((p) => p.chats);
    expect(inSecond.map((c) => c.id)).toEqual(await expectedIds(second, false));
    expect(inSecond).toHaveLength(5);

    // Alice's cursor handed to Bob is only a position: it pages through Bob's own chats.
    const aliceCursor = (await chats.list(alice, { limit: 3 })).nextCursor;
    const bobIds = new Set(await expectedIds(bob, false));
    for (const id of idsOf(await allPages(bob, { limit: 50 }, aliceCursor)))
      expect(bobIds.has(id)).toBe(true);
  });

  it("the chat screen's bootstrap holds the Active list's first page and its cursor", async () => {
    const me = await ctx.newMember();
    await seedChats(me, 60);
    const boot = await ctx.get(BootstrapService).load(me.userId, { chat: true });
    const first = await chats.list(me, { archived: false });
    expect(boot.chat?.activeChats).toEqual(first.chats);
    expect(boot.chat?.activeChatsCursor).toBe(first.nextCursor);
    expect(first.chats).toHaveLength(50);
    const second = await chats.list(me, { cursor: first.nextCursor ?? '' });
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.chats).toHaveLength(10);
  });
});
