import request from 'supertest';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { newChat, newMessage } from '../../test/factories';
import type { SearchPage } from '../contracts/search';
import { EMPTY_SEARCH, SEARCH_TOO_LONG } from './dto/search.dto';
import { BAD_SEARCH_CURSOR } from './search.service';

/** GET /api/search at the edge: the query string and the company guard. What it finds is in search.service.int-spec.ts. */
describe('GET /api/search (full-text search over the caller’s own chats)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a query with the hits of the caller in the company of the request', async () => {
    const user = await registerUser(t);
    const scope = { userId: user.userId, companyId: user.companyId };
    const chat = await newChat(t.app, scope, { title: 'Trip planning' });
    const message = await newMessage(t.app, scope, chat.id, { content: 'Book the ferry to Hydra' });
    const res = await request(t.http).get('/api/search').query({ q: 'ferry' }).set(as(user)).expect(200);
    expect((res.body as SearchPage).results.map((r) => [r.messageId, r.chatTitle])).toEqual([
      [message.id, 'Trip planning'],
    ]);
    // Not a member: the company does not exist for the caller.
    const stranger = await registerUser(t);
    await request(t.http)
      .get('/api/search')
      .query({ q: 'ferry' })
      .set(as(stranger, user.companyId))
      .expect(404);
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
    const odd = await request(t.http)
      .get('/api/search')
      .query({ q: '!!! & | :* ( "' })
      .set(as(user))
      .expect(200);
    expect((odd.body as SearchPage).results).toEqual([]);
  });
});
