import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newChat, newMessage } from '../../test/factories';
import { addMember } from '../../test/identities.test-util';
import type { SearchPage } from '../contracts/search';
import { EMPTY_SEARCH, SEARCH_TOO_LONG } from './dto/search.dto';
import { BAD_SEARCH_CURSOR } from './search.service';

describe('GET /api/search (full-text search over the caller’s own chats)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const scopeOf = (user: RegisteredUser, companyId = user.companyId) => ({ userId: user.userId, companyId });
  const search = async (user: RegisteredUser, query: Record<string, string>, companyId?: string) => {
    const res = await request(t.http).get('/api/search').query(query).set(as(user, companyId)).expect(200);
    return res.body as SearchPage;
  };
  const snippet = (page: SearchPage) =>
    page.results.map((r) => r.segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join(''));

  it('finds a word in an old message, with the chat, the cursor to open it at and the words marked', async () => {
    const user = await registerUser(t);
    const chat = await newChat(t.app, scopeOf(user), { title: 'Trip planning' });
    const old = await newMessage(t.app, scopeOf(user), chat.id, {
      content: 'Book the ferry to Hydra <b>before</b> Friday',
    });
    for (let i = 0; i < 5; i++) await newMessage(t.app, scopeOf(user), chat.id, { content: `later ${i}` });

    const page = await search(user, { q: 'FERRY hydra' });
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
    const owner = await registerUser(t);
    const colleague = await registerUser(t);
    await addMember(t, owner.companyId, colleague.userId, 'admin');
    const word = `zebracorn${Date.now()}`;
    const ownChat = await newChat(t.app, scopeOf(owner));
    await newMessage(t.app, scopeOf(owner), ownChat.id, { content: `owner says ${word}` });
    // The colleague's chat in the same company, and the owner's own chat in the colleague's company.
    const colleagueChat = await newChat(t.app, scopeOf(colleague, owner.companyId));
    await newMessage(t.app, scopeOf(colleague, owner.companyId), colleagueChat.id, {
      content: `colleague says ${word}`,
    });
    await addMember(t, colleague.companyId, owner.userId, 'user');
    const elsewhere = await newChat(t.app, scopeOf(owner, colleague.companyId));
    await newMessage(t.app, scopeOf(owner, colleague.companyId), elsewhere.id, {
      content: `elsewhere ${word}`,
    });

    expect(snippet(await search(owner, { q: word }))).toEqual([`owner says [${word}]`]);
    expect(snippet(await search(colleague, { q: word }, owner.companyId))).toEqual([
      `colleague says [${word}]`,
    ]);
    expect(snippet(await search(owner, { q: word }, colleague.companyId))).toEqual([`elsewhere [${word}]`]);
    expect((await search(colleague, { q: word })).results).toEqual([]);
    // Not a member: the company does not exist for the caller.
    const stranger = await registerUser(t);
    await request(t.http)
      .get('/api/search')
      .query({ q: word })
      .set(as(stranger, owner.companyId))
      .expect(404);
  });

  it('ranks a better match first, and of equal matches the more recent', async () => {
    const user = await registerUser(t);
    const chat = await newChat(t.app, scopeOf(user));
    const passing = await newMessage(t.app, scopeOf(user), chat.id, {
      content:
        'a long message that mentions the lighthouse once among many other words about weather and tides',
    });
    const focused = await newMessage(t.app, scopeOf(user), chat.id, {
      content: 'lighthouse lighthouse keeper',
    });
    const older = await newMessage(t.app, scopeOf(user), chat.id, { content: 'the old mill' });
    const newer = await newMessage(t.app, scopeOf(user), chat.id, { content: 'the old mill' });
    // The later-inserted of two equal messages written a month earlier: recency, not insertion order, wins.
    await t.app
      .get(DataSource)
      .query(`UPDATE messages SET created_at = now() - interval '30 days' WHERE id = $1`, [newer.id]);

    const lighthouse = await search(user, { q: 'lighthouse' });
    expect(lighthouse.results.map((r) => r.messageId)).toEqual([focused.id, passing.id]);
    const mill = await search(user, { q: 'mill' });
    expect(mill.results.map((r) => r.messageId)).toEqual([older.id, newer.id]);
  });

  it('pages by cursor through every hit exactly once, in rank order', async () => {
    const user = await registerUser(t);
    const chat = await newChat(t.app, scopeOf(user));
    const ids = new Set<string>();
    for (let i = 0; i < 23; i++) {
      const words = Array.from({ length: (i % 5) + 1 }, () => 'pebble').join(' ');
      ids.add((await newMessage(t.app, scopeOf(user), chat.id, { content: `${words} number ${i}` })).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: SearchPage = await search(user, {
        q: 'pebble',
        limit: '10',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.results.map((r) => r.messageId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(23);
    expect(new Set(seen)).toEqual(ids);
    const all = await search(user, { q: 'pebble', limit: '50' });
    expect(seen).toEqual(all.results.map((r) => r.messageId));
  });

  it('marks every matching word of a long message in a snippet of a few fragments', async () => {
    const user = await registerUser(t);
    const chat = await newChat(t.app, scopeOf(user));
    const filler = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    await newMessage(t.app, scopeOf(user), chat.id, { content: `start ${filler} needle ${filler} end` });
    const [result] = (await search(user, { q: 'needle' })).results;
    const text = result.segments.map((s) => s.text).join('');
    expect(result.segments.filter((s) => s.match)).toEqual([{ text: 'needle', match: true }]);
    expect(text.length).toBeLessThan(400);
  });

  it('answers a readable 400 for an empty, blank or too long query or a forged cursor', async () => {
    const user = await registerUser(t);
    const ask = (query: Record<string, string>) =>
      request(t.http).get('/api/search').query(query).set(as(user)).expect(400);
    expect((await ask({})).body.message).toBe(EMPTY_SEARCH);
    expect((await ask({ q: '   ' })).body.message).toBe(EMPTY_SEARCH);
    expect((await ask({ q: 'x'.repeat(201) })).body.message).toBe(SEARCH_TOO_LONG);
    expect((await ask({ q: 'x', cursor: 'not-a-cursor' })).body.message).toBe(BAD_SEARCH_CURSOR);
    const forged = Buffer.from(JSON.stringify([Date.now(), 1, '99999999999999999999'])).toString('base64url');
    expect((await ask({ q: 'x', cursor: forged })).body.message).toBe(BAD_SEARCH_CURSOR);
    expect((await ask({ q: 'x', limit: '0' })).body.message).toBe('limit must be between 1 and 50');
    // Operators and punctuation are words to find, never a syntax error.
    const odd = await search(user, { q: '!!! & | :* ( "' });
    expect(odd.results).toEqual([]);
  });
});
