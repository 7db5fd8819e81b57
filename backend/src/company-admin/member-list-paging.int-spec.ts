import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, type TestApp } from '../../test/app.test-util';
import { type Account, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import type { MemberPage } from '../contracts/company-admin';
import { INVALID_MEMBER_CURSOR } from './members.service';

/**
 * GET /api/company/members pages by keyset on (created_at, id), oldest member first, and searches by
 * name or email on the server (issue 13, lists at scale).
 */
describe('company members paging (real PostgreSQL)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  const getPage = async (caller: Account, query: string, companyId = caller.companyId) =>
    (await request(t.http).get(`/api/company/members${query}`).set(as(caller, companyId)).expect(200))
      .body as MemberPage;

  async function allPages(caller: Account, query: string): Promise<MemberPage[]> {
    const pages: MemberPage[] = [];
    let cursor: string | null = null;
    do {
      const sep = query ? '&' : '?';
      pages.push(
        await getPage(caller, `${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`),
      );
      cursor = pages.at(-1)?.nextCursor ?? null;
      expect(pages.length).toBeLessThan(50);
    } while (cursor);
    return pages;
  }

  /** `count` accounts joined to the company by SQL, all at `at` when given (a run of equal timestamps). */
  async function addMembers(companyId: string, prefix: string, count: number, at?: string): Promise<void> {
    await db.query(
      `WITH accounts AS (
         INSERT INTO profiles (email, first_name, last_name)
         SELECT $2 || g || '-' || $1::text || '@paging.example', 'Member', $2 || ' ' || g
         FROM generate_series(1, $3::int) AS g RETURNING id)
       INSERT INTO company_users (company_id, user_id, role, created_at)
       SELECT $1::uuid, id, 'user', COALESCE($4::timestamptz, now()) FROM accounts`,
      [companyId, prefix, count, at ?? null],
    );
  }

  const expectedIds = async (companyId: string) =>
    (
      (await db.query('SELECT user_id FROM company_users WHERE company_id = $1 ORDER BY created_at, id', [
        companyId,
      ])) as Array<{ user_id: string }>
    ).map((r) => r.user_id);

  it('pages through every member once, oldest first, stable under equal join times', async () => {
    const owner = await registerAccount(t, 'mp-owner');
    await addMembers(owner.companyId, 'same', 60, '2030-01-01T00:00:00.654321Z');
    await addMembers(owner.companyId, 'later', 44);
    const pages = await allPages(owner, '?limit=50');
    expect(pages.map((p) => p.members.length)).toEqual([50, 50, 5]);
    const ids = pages.flatMap((p) => p.members.map((m) => m.userId));
    expect(ids).toEqual(await expectedIds(owner.companyId));
    expect(ids[0]).toBe(owner.userId);
    expect(new Set(ids).size).toBe(105);
    // Default size, and small pages through the run of equal timestamps.
    expect((await getPage(owner, '')).members).toHaveLength(50);
    expect((await allPages(owner, '?limit=7')).flatMap((p) => p.members.map((m) => m.userId))).toEqual(ids);
  });

  it('searches by name or email on the server, paged too, wildcards taken literally', async () => {
    const owner = await registerAccount(t, 'mp-search');
    await addMembers(owner.companyId, 'alpha', 12);
    await addMembers(owner.companyId, 'beta', 5);
    const byName = await allPages(owner, '?search=ALPHA&limit=5');
    expect(byName.map((p) => p.members.length)).toEqual([5, 5, 2]);
    expect(byName.flatMap((p) => p.members).every((m) => m.name.startsWith('Member alpha'))).toBe(true);
    const byEmail = await getPage(owner, `?search=${encodeURIComponent('beta3-')}`);
    expect(byEmail.members.map((m) => m.email)).toEqual([`beta3-${owner.companyId}@paging.example`]);
    expect((await getPage(owner, '?search=%25')).members).toEqual([]);
    expect((await getPage(owner, '?search=_')).members).toEqual([]);
    expect((await getPage(owner, '?search=%20%20')).members).toHaveLength(18);
  });

  it('a tampered cursor or a bad limit or search is a readable 400', async () => {
    const owner = await registerAccount(t, 'mp-bad');
    await addMembers(owner.companyId, 'x', 3);
    const { nextCursor } = await getPage(owner, '?limit=2');
    const text = Buffer.from(nextCursor ?? '', 'base64url').toString('utf8');
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
    for (const cursor of [
      'garbage!',
      b64('hello'),
      b64(`2026-02-30T00:00:00.000000Z ${text.split(' ')[1]}`),
      `${nextCursor}A`,
    ]) {
      const res = await request(t.http)
        .get(`/api/company/members?cursor=${encodeURIComponent(cursor)}`)
        .set(as(owner, owner.companyId))
        .expect(400);
      expect(res.body.message).toBe(INVALID_MEMBER_CURSOR);
    }
    for (const query of [
      'limit=0',
      'limit=201',
      'limit=x',
      `search=${'a'.repeat(201)}`,
      'cursor=a&cursor=b',
    ]) {
      const res = await request(t.http)
        .get(`/api/company/members?${query}`)
        .set(as(owner, owner.companyId))
        .expect(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it("never lists another company's members, whatever the cursor", async () => {
    const alice = await registerAccount(t, 'mp-alice');
    const bob = await registerAccount(t, 'mp-bob');
    await addMembers(alice.companyId, 'a', 6);
    await addMembers(bob.companyId, 'b', 6);
    const aliceCursor = (await getPage(alice, '?limit=2')).nextCursor ?? '';
    const bobIds = new Set(await expectedIds(bob.companyId));
    const seen = (await getPage(bob, `?limit=200&cursor=${encodeURIComponent(aliceCursor)}`)).members;
    for (const m of seen) expect(bobIds.has(m.userId)).toBe(true);
    const all = (await allPages(bob, '?limit=3')).flatMap((p) => p.members.map((m) => m.userId));
    expect(all).toEqual(await expectedIds(bob.companyId));
    await request(t.http).get('/api/company/members').set(as(bob, alice.companyId)).expect(404);
  });
});
