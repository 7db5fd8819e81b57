import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  cookieFrom,
  createFreshDatabase,
  createTestApp,
  lastMailTo,
  type TestApp,
  uniqueEmail,
} from '../../test/app.test-util';
import { type Account, nextClientAddress, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { connectSocket, useSockets } from '../../test/realtime.test-util';
import { ACCOUNT_DISABLED, AuthService } from '../auth/auth.service';
import type { PlatformUserPage, PlatformUserView } from '../contracts/platform-admin';
import { SUPERADMIN_REQUIRED } from './superadmin.guard';
import {
  CANNOT_DISABLE_SELF,
  DISABLED_SESSION_REASON,
  INVITED_EMAIL_TAKEN,
  LAST_SUPERADMIN,
  USER_NOT_FOUND,
} from './users.service';
import { PlatformUsersRepository } from './users.repository';

/**
 * User Management on a database of its own: the first account registered is the installation's only
 * superadmin, so "the last superadmin" is exact here whatever other suites did.
 */
describe('platform admin: users (real PostgreSQL)', () => {
  let t: TestApp;
  let fresh: { url: string; drop(): Promise<void> };
  let root: Account;
  const openSocket = useSockets();

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    t = await createTestApp({}, fresh.url);
    root = await registerAccount(t, 'root');
  });
  afterAll(async () => {
    await t?.close();
    await fresh?.drop();
  });

  const db = () => t.app.get(DataSource);
  const patch = (caller: Account, target: { userId: string }, body: object) =>
    request(t.http).patch(`/api/admin/users/${target.userId}`).set(as(caller, null)).send(body);
  const auditCount = async (action: string, targetId: string): Promise<number> => {
    const rows: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM audit_log WHERE action = $1 AND target_id = $2',
      [action, targetId],
    );
    return Number(rows[0].n);
  };
  const login = (account: Account) =>
    request(t.http)
      .post('/api/auth/login')
      .set('X-Forwarded-For', nextClientAddress())
      .send({ email: account.email, password: account.password });
  /** A second superadmin, made through the API by root. */
  const newSuperadmin = async (prefix: string): Promise<Account> => {
    const account = await registerAccount(t, prefix);
    await patch(root, account, { isSuperadmin: true }).expect(200);
    return account;
  };
  const superadminIds = async (): Promise<string[]> => {
    const rows: Array<{ id: string }> = await db().query(
      'SELECT id FROM profiles WHERE is_superadmin AND disabled_at IS NULL ORDER BY id',
    );
    return rows.map((r) => r.id);
  };

  it('refuses every user route to anyone but a superadmin, and a demoted one at once', async () => {
    const plain = await registerAccount(t, 'plain');
    const res = await request(t.http).get('/api/admin/users').set(as(plain, null)).expect(403);
    expect(res.body.message).toBe(SUPERADMIN_REQUIRED);
    await request(t.http).post('/api/admin/users/invitations').set(as(plain, null)).send({}).expect(403);
    await patch(plain, plain, { isSuperadmin: true }).expect(403);
    await request(t.http)
      .post(`/api/admin/users/${root.userId}/password-reset`)
      .set(as(plain, null))
      .expect(403);
    await request(t.http).get('/api/admin/users').expect(401);

    const second = await newSuperadmin('second');
    await request(t.http).get('/api/admin/users').set(as(second, null)).expect(200);
    await patch(root, second, { isSuperadmin: false }).expect(200);
    // The same access token, the very next request: the database says no.
    await request(t.http).get('/api/admin/users').set(as(second, null)).expect(403);
  });

  it('lists accounts by email with name, role, disabled flag and last login; searches and pages', async () => {
    const tag = `pg${Date.now()}`;
    const made: Account[] = [];
    for (let i = 0; i < 5; i += 1) made.push(await registerAccount(t, `${tag}-${i}`));
    const first = await request(t.http)
      .get('/api/admin/users')
      .query({ search: tag.toUpperCase(), limit: '2' })
      .set(as(root, null))
      .expect(200);
    const page1 = first.body as PlatformUserPage;
    expect(page1.users).toHaveLength(2);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const row = page1.users[0];
    expect(row).toEqual({
      id: made[0].userId,
      name: `${tag}-0 user`,
      email: made[0].email.toLowerCase(),
      avatar: '/placeholder.svg',
      isSuperadmin: false,
      disabled: false,
      lastLogin: expect.any(String),
      createdAt: expect.any(String),
    });
    const seen = [...page1.users];
    let cursor = page1.nextCursor;
    while (cursor) {
      const next = await request(t.http)
        .get('/api/admin/users')
        .query({ search: tag, limit: '2', cursor })
        .set(as(root, null))
        .expect(200);
      seen.push(...(next.body as PlatformUserPage).users);
      cursor = (next.body as PlatformUserPage).nextCursor;
    }
    expect(seen.map((u) => u.id)).toEqual(made.map((m) => m.userId));
    // By name too, and a LIKE wildcard is only a character.
    const byName = await request(t.http)
      .get('/api/admin/users')
      .query({ search: `${tag}-3 us` })
      .set(as(root, null));
    expect((byName.body as PlatformUserPage).users.map((u) => u.id)).toEqual([made[3].userId]);
    const wildcard = await request(t.http).get('/api/admin/users').query({ search: '%' }).set(as(root, null));
    expect((wildcard.body as PlatformUserPage).users).toEqual([]);

    const bad = await request(t.http)
      .get('/api/admin/users')
      .query({ cursor: 'not a cursor' })
      .set(as(root, null));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid cursor');
    const tooMany = await request(t.http)
      .get('/api/admin/users')
      .query({ limit: '1000' })
      .set(as(root, null));
    expect(tooMany.status).toBe(400);
  });

  it('invites a user: an account without a password, and a mailed link to choose one', async () => {
    const email = uniqueEmail('invitee');
    const res = await request(t.http)
      .post('/api/admin/users/invitations')
      .set(as(root, null))
      .send({ name: 'Ivy Invitee', email: email.toUpperCase() })
      .expect(201);
    const invited = res.body as PlatformUserView;
    expect(invited).toMatchObject({ name: 'Ivy Invitee', email, isSuperadmin: false, lastLogin: null });
    expect(await auditCount('user.invited', invited.id)).toBe(1);

    // Nobody can sign in before the link is used.
    const before = await request(t.http).post('/api/auth/login').send({ email, password: 'anything at all' });
    expect(before.status).toBe(401);

    await t.drain();
    const mail = lastMailTo(t, email);
    expect(mail).toContain('You have been invited to Switchboard');
    expect(mail).toContain('Ivy Invitee');
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail as string)![1]);
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ token, password: 'my own password' })
      .expect(200);
    await request(t.http).post('/api/auth/login').send({ email, password: 'my own password' }).expect(200);

    // The same address again: a readable 409, and no second audit entry.
    const again = await request(t.http)
      .post('/api/admin/users/invitations')
      .set(as(root, null))
      .send({ name: 'Ivy Again', email });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(INVITED_EMAIL_TAKEN);
    expect(await auditCount('user.invited', invited.id)).toBe(1);

    const missing = await request(t.http)
      .post('/api/admin/users/invitations')
      .set(as(root, null))
      .send({ name: ' ', email: 'x@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Name is required');
    const badEmail = await request(t.http)
      .post('/api/admin/users/invitations')
      .set(as(root, null))
      .send({ name: 'X', email: 'not-an-email' });
    expect(badEmail.status).toBe(400);
  });

  it('sends a password reset mail to the account, audited once', async () => {
    const target = await registerAccount(t, 'reset');
    await t.drain();
    await request(t.http)
      .post(`/api/admin/users/${target.userId}/password-reset`)
      .set(as(root, null))
      .expect(204);
    await t.drain();
    expect(lastMailTo(t, target.email.toLowerCase())).toContain('Reset your Switchboard password');
    expect(await auditCount('user.password_reset_sent', target.userId)).toBe(1);

    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await request(t.http).post(`/api/admin/users/${unknown}/password-reset`).set(as(root, null));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(USER_NOT_FOUND);
    expect(await auditCount('user.password_reset_sent', unknown)).toBe(0);
    await request(t.http).post('/api/admin/users/not-a-uuid/password-reset').set(as(root, null)).expect(404);
  });

  it('promotes and demotes, one audit entry per change and none for a no-op or a refusal', async () => {
    const target = await registerAccount(t, 'promo');
    const up = await patch(root, target, { isSuperadmin: true }).expect(200);
    expect((up.body as PlatformUserView).isSuperadmin).toBe(true);
    await request(t.http).get('/api/admin/users').set(as(target, null)).expect(200);
    await patch(root, target, { isSuperadmin: true }).expect(200);
    expect(await auditCount('user.superadmin_granted', target.userId)).toBe(1);
    const down = await patch(root, target, { isSuperadmin: false }).expect(200);
    expect((down.body as PlatformUserView).isSuperadmin).toBe(false);
    expect(await auditCount('user.superadmin_revoked', target.userId)).toBe(1);

    const nothing = await patch(root, target, {});
    expect(nothing.status).toBe(400);
    const wrongType = await patch(root, target, { isSuperadmin: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe('isSuperadmin must be true or false');
  });

  it('never demotes or disables the last active superadmin, and nobody disables themself', async () => {
    expect(await superadminIds()).toEqual([root.userId]);
    const demote = await patch(root, root, { isSuperadmin: false });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toBe(LAST_SUPERADMIN);
    const disableSelf = await patch(root, root, { disabled: true });
    expect(disableSelf.status).toBe(409);
    expect(disableSelf.body.message).toBe(CANNOT_DISABLE_SELF);
    expect(await auditCount('user.superadmin_revoked', root.userId)).toBe(0);
    expect(await auditCount('user.disabled', root.userId)).toBe(0);
    expect(await superadminIds()).toEqual([root.userId]);

    // With a second one, root may step down; then the second one is the last.
    const second = await newSuperadmin('heir');
    await patch(root, root, { isSuperadmin: false }).expect(200);
    const last = await patch(second, second, { isSuperadmin: false });
    expect(last.status).toBe(409);
    await patch(second, root, { isSuperadmin: true }).expect(200);
    await patch(root, second, { isSuperadmin: false }).expect(200);
    expect(await superadminIds()).toEqual([root.userId]);
  });

  it('keeps a superadmin when two demote or disable each other (or themselves) at the same moment', async () => {
    for (let round = 0; round < 4; round += 1) {
      const other = await newSuperadmin(`race${round}`);
      expect((await superadminIds()).sort()).toEqual([root.userId, other.userId].sort());
      const attempts =
        round % 2 === 0
          ? [patch(root, other, { isSuperadmin: false }), patch(other, root, { isSuperadmin: false })]
          : [patch(root, root, { isSuperadmin: false }), patch(other, other, { isSuperadmin: false })];
      const results = await Promise.all(attempts);
      expect(results.map((r) => r.status).sort()).toEqual(round % 2 === 0 ? [200, 403] : [200, 409]);
      const remaining = await superadminIds();
      expect(remaining).toHaveLength(1);
      const revoked: Array<{ n: string }> = await db().query(
        `SELECT count(*) AS n FROM audit_log WHERE action = 'user.superadmin_revoked' AND target_id = ANY($1)`,
        [[root.userId, other.userId]],
      );
      expect(Number(revoked[0].n)).toBeGreaterThanOrEqual(1);
      // Put root back as the only one.
      const survivor = remaining[0] === root.userId ? root : other;
      if (survivor !== root) await patch(survivor, root, { isSuperadmin: true }).expect(200);
      if (survivor !== root) await patch(root, survivor, { isSuperadmin: false }).expect(200);
      expect(await superadminIds()).toEqual([root.userId]);
    }

    // Disabling: root and another superadmin disable each other at once: one account stays active.
    const other = await newSuperadmin('race-disable');
    const results = await Promise.all([
      patch(root, other, { disabled: true }),
      patch(other, root, { disabled: true }),
    ]);
    // The loser is refused under the lock (403), or already signed out by the winner (401).
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 403]).toContain(statuses[1]);
    expect(await superadminIds()).toHaveLength(1);
    const [active] = await superadminIds();
    if (active !== root.userId) {
      // Root was disabled (its own sessions ended): sign root in again after the survivor enables it.
      const survivor = other;
      await patch(survivor, root, { disabled: false }).expect(200);
      const again = await login(root).expect(200);
      root = { ...root, accessToken: again.body.accessToken as string, refreshCookie: cookieFrom(again) };
      await patch(root, survivor, { isSuperadmin: false }).expect(200);
    } else {
      await patch(root, other, { disabled: false, isSuperadmin: false }).expect(200);
    }
    expect(await superadminIds()).toEqual([root.userId]);
  });

  it('disabling ends every session and socket at once and refuses sign-in; enabling restores it', async () => {
    const target = await registerAccount(t, 'disable');
    const socket = await openSocket(t.baseUrl, target.accessToken);
    const disconnected = new Promise<void>((resolve) => socket.socket.once('disconnect', () => resolve()));

    const res = await patch(root, target, { disabled: true }).expect(200);
    expect((res.body as PlatformUserView).disabled).toBe(true);
    expect(await socket.waitFor<{ reason: string }>('session.revoked')).toEqual({
      reason: DISABLED_SESSION_REASON,
    });
    await disconnected;
    await request(t.http).get('/api/me').set(as(target, null)).expect(401);
    await request(t.http).post('/api/auth/refresh').set('Cookie', target.refreshCookie).expect(401);
    const refused = await login(target);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(ACCOUNT_DISABLED);
    // A socket with the old token cannot come back either.
    await expect(connectSocket(t.baseUrl, target.accessToken)).rejects.toThrow();
    // Nor Google sign-in of the same account (linked by its Google id).
    const sub = `google-${target.userId}`;
    await db().query('UPDATE profiles SET google_sub = $2 WHERE id = $1', [target.userId, sub]);
    const google = { sub, email: target.email, emailVerified: true, firstName: 'G', lastName: 'User' };
    await expect(t.app.get(AuthService).googleLogin(google)).rejects.toThrow(ACCOUNT_DISABLED);
    expect(await auditCount('user.disabled', target.userId)).toBe(1);

    // A password reset link does not get around it.
    await request(t.http).post('/api/auth/forgot-password').send({ email: target.email }).expect(202);
    await t.drain();
    const token = decodeURIComponent(
      /reset-password\?token=(\S+)/.exec(lastMailTo(t, target.email.toLowerCase())!)![1],
    );
    await request(t.http)
      .post('/api/auth/reset-password')
      .send({ token, password: 'a brand new password' })
      .expect(200);
    expect((await login({ ...target, password: 'a brand new password' })).status).toBe(403);

    const enabled = await patch(root, target, { disabled: false }).expect(200);
    expect((enabled.body as PlatformUserView).disabled).toBe(false);
    const back = await login({ ...target, password: 'a brand new password' }).expect(200);
    await expect(t.app.get(AuthService).googleLogin(google)).resolves.toMatchObject({
      user: { id: target.userId },
    });
    await request(t.http)
      .get('/api/me')
      .set(as(back.body.accessToken as string))
      .expect(200);
    expect(await auditCount('user.enabled', target.userId)).toBe(1);
    expect(await auditCount('user.disabled', target.userId)).toBe(1);

    // An unknown account: 404 and nothing recorded.
    const unknown = '00000000-0000-4000-8000-000000000001';
    const missing = await request(t.http)
      .patch(`/api/admin/users/${unknown}`)
      .set(as(root, null))
      .send({ disabled: true });
    expect(missing.status).toBe(404);
    expect(await auditCount('user.disabled', unknown)).toBe(0);
  });

  it('pages through 10,000 accounts: the first page, a deep cursor, a search, a rare match', async () => {
    await db().query(
      `INSERT INTO profiles (email, first_name, last_name)
       SELECT 'bulk' || lpad(g::text, 5, '0') || '@load.example', 'Bulk', 'User ' || g
       FROM generate_series(1, 10000) AS g`,
    );
    await db().query('ANALYZE profiles');
    const timings = {
      first: [] as number[],
      deep: [] as number[],
      search: [] as number[],
      rare: [] as number[],
    };
    const timed = async (bucket: number[], query: Record<string, string>): Promise<PlatformUserPage> => {
      const started = process.hrtime.bigint();
      const res = await request(t.http).get('/api/admin/users').query(query).set(as(root, null)).expect(200);
      bucket.push(Number(process.hrtime.bigint() - started) / 1e6);
      return res.body as PlatformUserPage;
    };
    // A cursor deep in the list: the page after bulk05000.
    const deepCursor = Buffer.from('bulk05000@load.example').toString('base64url');
    for (let i = 0; i < 21; i += 1) {
      const first = await timed(timings.first, { limit: '50' });
      expect(first.users).toHaveLength(50);
      const deep = await timed(timings.deep, { limit: '50', cursor: deepCursor });
      expect(deep.users[0].email).toBe('bulk05001@load.example');
      const search = await timed(timings.search, { search: 'user 77', limit: '50' });
      expect(search.users.length).toBeGreaterThan(0);
      const rare = await timed(timings.rare, { search: 'bulk09999', limit: '50' });
      expect(rare.users).toHaveLength(1);
    }
    // The query alone (the repository, no HTTP): what the index buys.
    const repo = t.app.get(PlatformUsersRepository);
    const sql = { first: [] as number[], deep: [] as number[], search: [] as number[] };
    for (let i = 0; i < 21; i += 1) {
      for (const [bucket, query] of [
        [sql.first, { limit: 51 }],
        [sql.deep, { after: 'bulk05000@load.example', limit: 51 }],
        [sql.search, { search: 'user 77', limit: 51 }],
      ] as const) {
        const started = process.hrtime.bigint();
        await repo.page(query);
        bucket.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const sqlReport = Object.fromEntries(
      Object.entries(sql).map(([k, v]) => [k, Math.round(p50(v) * 10) / 10]),
    );
    process.stdout.write(
      `platform users page query p50 ms (10,000 accounts): ${JSON.stringify(sqlReport)}\n`,
    );
    const report = Object.fromEntries(
      Object.entries(timings).map(([k, v]) => [k, Math.round(p50(v) * 10) / 10]),
    );
    // Printed for the record only: a timed bound fails on a busy machine and proves nothing on a quiet
    // one. The speed is measured against raw pg in `npm run bench` (the lists phase).
    process.stdout.write(`platform users page p50 ms (10,000 accounts): ${JSON.stringify(report)}\n`);
  });
});
