import { DataSource } from 'typeorm';
import { useServiceContext } from '../../test/service-context';
import type { OwnerScope } from '../common/company-scope';
import type { SearchPage } from '../contracts/search';
import { BAD_SEARCH_CURSOR, SearchService } from './search.service';

/** Full-text search over the caller's own chats; what the query string may hold is in search.int-spec.ts. */
describe('search (SearchService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let service: SearchService;
  beforeAll(() => (service = ctx.get(SearchService)));

  const search = (scope: OwnerScope, query: { q: string; cursor?: string; limit?: number }) =>
    service.search(scope, query);
  const snippet = (page: SearchPage) =>
    page.results.map((r) => r.segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join(''));

  it('finds a word in an old message, with the chat, the cursor to open it at and the words marked', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me, { title: 'Trip planning' });
    const old = await ctx.newMessage(me, chat.id, {
      content: 'Book the ferry to Hydra <b>before</b> Friday',
    });
    for (let i = 0; i < 5; i++) await ctx.newMessage(me, chat.id, { content: `later ${i}` });

    const page = await search(me, { q: 'FERRY hydra' });
    expect(page.nextCursor).toBeNull();
    expect(page.results).toEqual([
      expect.objectContaining({
        messageId: old.id,
        seq: old.seq,
        chatId: chat.id,
        chatTitle: 'Trip planning',
        chatArchived: false,
        senderType: 'user',
        isVoiceMessage: false,
        timestamp: old.timestamp,
      }),
    ]);
    // Markup in a message is text: the client renders segments, never HTML.
    expect(snippet(page)).toEqual(['Book the [ferry] to [Hydra] <b>before</b> Friday']);
  });

  it("never finds another user's messages, nor the caller's own in another company", async () => {
    const owner = await ctx.newMember();
    const colleagueUser = await ctx.newUser();
    const colleagueOwn = await ctx.newCompany(colleagueUser);
    const colleague = await ctx.newMembership(owner, colleagueUser, 'admin');
    const word = `zebracorn${Date.now()}`;
    const ownChat = await ctx.newChat(owner);
    await ctx.newMessage(owner, ownChat.id, { content: `owner says ${word}` });
    // The colleague's chat in the same company, and the owner's own chat in the colleague's company.
    const colleagueChat = await ctx.newChat(colleague);
    await ctx.newMessage(colleague, colleagueChat.id, { content: `colleague says ${word}` });
    const elsewhere = await ctx.newMembership(colleagueOwn, owner, 'user');
    const elsewhereChat = await ctx.newChat(elsewhere);
    await ctx.newMessage(elsewhere, elsewhereChat.id, { content: `elsewhere ${word}` });

    expect(snippet(await search(owner, { q: word }))).toEqual([`owner says [${word}]`]);
    expect(snippet(await search(colleague, { q: word }))).toEqual([`colleague says [${word}]`]);
    expect(snippet(await search(elsewhere, { q: word }))).toEqual([`elsewhere [${word}]`]);
    expect((await search(colleagueOwn, { q: word })).results).toEqual([]);
  });

  it("finds messages by their files' names (a message with files alone too), scoped like their text", async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me, { title: 'Reports' });
    const tag = `kw${Date.now()}`;
    const attach = async (scope: OwnerScope, chatId: string, messageId: string, names: string[]) => {
      const ids: string[] = [];
      for (const [position, name] of names.entries()) {
        const rows: Array<{ id: string }> = await ctx.get(DataSource).query(
          `INSERT INTO files (owner_id, company_id, chat_id, message_id, position, purpose, name, content_type,
             kind, storage, size)
           VALUES ($1, $2, $3, $4, $5, 'attachment', $6, 'application/pdf', 'file', 'pg', 10) RETURNING id`,
          [scope.userId, scope.companyId, chatId, messageId, position + 1, name],
        );
        ids.push(rows[0].id);
      }
      return ids;
    };
    const onlyFiles = await ctx.newMessage(me, chat.id, { content: '' });
    const [report] = await attach(me, chat.id, onlyFiles.id, [`Q3_Report-${tag}.final.pdf`, 'photo.png']);
    const withText = await ctx.newMessage(me, chat.id, { content: `the ${tag} notes` });
    await attach(me, chat.id, withText.id, [`notes-${tag}.txt`]);

    const page = await search(me, { q: `report ${tag}` });
    expect(page.results.map((r) => [r.messageId, r.files.map((f) => f.name)])).toEqual([
      [onlyFiles.id, [`Q3_Report-${tag}.final.pdf`]],
    ]);
    expect(page.results[0].files[0]).toEqual({
      id: report,
      name: `Q3_Report-${tag}.final.pdf`,
      mimeType: 'application/pdf',
      kind: 'file',
    });
    // The name as written, punctuation and all, finds it too; a message found by text and by a file
    // name comes once, with the file listed.
    expect((await search(me, { q: `q3-report-${tag}.final.pdf` })).results.map((r) => r.messageId)).toEqual([
      onlyFiles.id,
    ]);
    const both = await search(me, { q: tag });
    expect(both.results.map((r) => r.messageId).sort()).toEqual([onlyFiles.id, withText.id].sort());
    expect(both.results.find((r) => r.messageId === withText.id)?.files.map((f) => f.name)).toEqual([
      `notes-${tag}.txt`,
    ]);
    expect((await search(me, { q: `${tag} -report` })).results.map((r) => r.messageId)).toEqual([
      withText.id,
    ]);

    // Another user of the company, and the same user in another company, find none of it.
    const colleague = await ctx.newMembership(me, await ctx.newUser(), 'admin');
    expect((await search(colleague, { q: tag })).results).toEqual([]);
    const elsewhere = await ctx.newMembership(await ctx.newCompany(await ctx.newUser()), me, 'user');
    expect((await search(elsewhere, { q: tag })).results).toEqual([]);
  });

  it('ranks a better match first, and of equal matches the more recent', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const passing = await ctx.newMessage(me, chat.id, {
      content:
        'a long message that mentions the lighthouse once among many other words about weather and tides',
    });
    const focused = await ctx.newMessage(me, chat.id, { content: 'lighthouse lighthouse keeper' });
    const older = await ctx.newMessage(me, chat.id, { content: 'the old mill' });
    // The later-inserted of two equal messages written a month earlier: recency, not insertion order, wins.
    const newer = await ctx.newMessage(me, chat.id, {
      content: 'the old mill',
      createdAt: new Date(Date.now() - 30 * 24 * 3600_000),
    });

    const lighthouse = await search(me, { q: 'lighthouse' });
    expect(lighthouse.results.map((r) => r.messageId)).toEqual([focused.id, passing.id]);
    const mill = await search(me, { q: 'mill' });
    expect(mill.results.map((r) => r.messageId)).toEqual([older.id, newer.id]);
  });

  it('pages by cursor through every hit exactly once, in rank order', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const ids = new Set<string>();
    for (let i = 0; i < 23; i++) {
      const words = Array.from({ length: (i % 5) + 1 }, () => 'pebble').join(' ');
      ids.add((await ctx.newMessage(me, chat.id, { content: `${words} number ${i}` })).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: SearchPage = await search(me, { q: 'pebble', limit: 10, ...(cursor ? { cursor } : {}) });
      seen.push(...page.results.map((r) => r.messageId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(23);
    expect(new Set(seen)).toEqual(ids);
    const all = await search(me, { q: 'pebble', limit: 50 });
    expect(seen).toEqual(all.results.map((r) => r.messageId));
  });

  it('marks every matching word of a long message in a snippet of a few fragments', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const filler = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    await ctx.newMessage(me, chat.id, { content: `start ${filler} needle ${filler} end` });
    const [result] = (await search(me, { q: 'needle' })).results;
    const text = result.segments.map((s) => s.text).join('');
    expect(result.segments.filter((s) => s.match)).toEqual([{ text: 'needle', match: true }]);
    expect(text.length).toBeLessThan(400);
  });

  it('refuses a forged cursor, and takes operators and punctuation as words to find', async () => {
    const me = await ctx.newMember();
    const forged = Buffer.from(JSON.stringify([Date.now(), 1, '99999999999999999999'])).toString('base64url');
    for (const cursor of ['not-a-cursor', forged]) {
      await expect(search(me, { q: 'x', cursor })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: BAD_SEARCH_CURSOR,
      });
    }
    expect((await search(me, { q: '!!! & | :* ( "' })).results).toEqual([]);
  });
});
