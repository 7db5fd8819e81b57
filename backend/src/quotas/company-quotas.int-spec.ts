import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { newChatIn, pdfBytes, uploadTo } from '../../test/attachments.test-util';
import { as } from '../../test/auth';
import { setSuperadmin } from '../../test/factories';
import type { CompanyDetails } from '../contracts/company-admin';
import type { CompanyQuotaUsage } from '../contracts/company-quotas';
import type { PlatformCompanyDetails } from '../contracts/platform-admin';
import { formatBytes, storedBytesQuotaReached } from './company-quotas.service';

describe('company quotas: stored bytes (real PostgreSQL)', () => {
  let t: TestApp;
  let admin: RegisteredUser;

  beforeAll(async () => {
    t = await createTestApp({ MAX_ATTACHMENT_MB: '1' });
    admin = await registerUser(t, { companyName: 'Platform' });
    await setSuperadmin(t.app, admin.userId);
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.app.get(DataSource);
  const setLimit = (companyId: string, body: Record<string, unknown>, caller: RegisteredUser = admin) =>
    request(t.http).patch(`/api/admin/companies/${companyId}/quotas`).set(as(caller)).send(body);
  const newChat = (user: RegisteredUser) => newChatIn(t, user);
  const upload = (user: RegisteredUser, chatId: string, name: string, bytes: Buffer) =>
    uploadTo(t, user, chatId, name, bytes);
  const companyUsage = async (user: RegisteredUser): Promise<CompanyQuotaUsage> =>
    ((await request(t.http).get('/api/company/details').set(as(user)).expect(200)).body as CompanyDetails)
      .quotas;

  it('has no limit by default; the platform admin sets one, shown used / limit on both Company Details', async () => {
    const owner = await registerUser(t);
    expect(await companyUsage(owner)).toMatchObject({ storedBytesLimit: null, storedBytesUsed: 0 });
    const chatId = await newChat(owner);
    const pdf = pdfBytes(100_000);
    expect((await upload(owner, chatId, 'a.pdf', pdf)).status).toBe(201);
    expect(await companyUsage(owner)).toMatchObject({ storedBytesLimit: null, storedBytesUsed: pdf.length });

    const set = await setLimit(owner.companyId, { storedBytesLimit: 5_000_000 }).expect(200);
    expect(set.body).toMatchObject({ storedBytesLimit: 5_000_000, storedBytesUsed: pdf.length });
    expect(await companyUsage(owner)).toMatchObject({
      storedBytesLimit: 5_000_000,
      storedBytesUsed: pdf.length,
    });
    const platform = (
      await request(t.http).get(`/api/admin/companies/${owner.companyId}`).set(as(admin)).expect(200)
    ).body as PlatformCompanyDetails;
    expect(platform.quotas).toMatchObject({ storedBytesLimit: 5_000_000, storedBytesUsed: pdf.length });

    // Audited, with the limits before and after.
    const [entry]: Array<{ details: unknown; actor_id: string; target_label: string }> = await db().query(
      `SELECT details, actor_id, target_label FROM audit_log WHERE action = 'company.quotas_updated'
       AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [owner.companyId],
    );
    expect(entry).toEqual({
      details: {
        before: { storedBytesLimit: null, messagesPerUserPerDay: null, messagesPerCompanyPerMonth: null },
        after: { storedBytesLimit: 5_000_000, messagesPerUserPerDay: null, messagesPerCompanyPerMonth: null },
      },
      actor_id: admin.userId,
      target_label: 'Test Company',
    });

    // Left out: unchanged; null: no limit again.
    expect((await setLimit(owner.companyId, {}).expect(200)).body.storedBytesLimit).toBe(5_000_000);
    expect(
      (await setLimit(owner.companyId, { storedBytesLimit: null }).expect(200)).body.storedBytesLimit,
    ).toBe(null);
  });

  it('refuses a bad limit, an unknown company and anyone but a superadmin', async () => {
    const owner = await registerUser(t);
    for (const bad of [0, -5, 1.5, 'ten', 1024 ** 5 + 1]) {
      const res = await setLimit(owner.companyId, { storedBytesLimit: bad });
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.message).toMatch(/storage limit/);
    }
    await setLimit('00000000-0000-4000-8000-000000000000', { storedBytesLimit: 10 }).expect(404);
    await setLimit(owner.companyId, { storedBytesLimit: 10 }, owner).expect(403);
    expect((await companyUsage(owner)).storedBytesLimit).toBe(null);
  });

  it('refuses an upload over the limit before storing anything, with a message naming the limit', async () => {
    const owner = await registerUser(t);
    const chatId = await newChat(owner);
    const first = pdfBytes(300_000);
    expect((await upload(owner, chatId, 'first.pdf', first)).status).toBe(201);
    await setLimit(owner.companyId, { storedBytesLimit: 500_000 }).expect(200);

    const res = await upload(owner, chatId, 'second.pdf', pdfBytes(300_000));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(storedBytesQuotaReached(500_000, first.length));
    expect(res.body.message).toContain(`its limit is ${formatBytes(500_000)}`);
    const rows: Array<{ n: string }> = await db().query(
      'SELECT count(*) AS n FROM files WHERE chat_id = $1',
      [chatId],
    );
    expect(Number(rows[0].n)).toBe(1);
    expect((await companyUsage(owner)).storedBytesUsed).toBe(first.length);

    // What fits still goes in.
    expect((await upload(owner, chatId, 'small.txt', Buffer.from('hello'))).status).toBe(201);
  });

  it('lets only one of two concurrent uploads take the last room', async () => {
    const owner = await registerUser(t);
    const chatId = await newChat(owner);
    const size = 400_000;
    await setLimit(owner.companyId, { storedBytesLimit: Math.round(size * 1.5) }).expect(200);
    const results = await Promise.all(
      [1, 2, 3].map((i) => upload(owner, chatId, `race-${i}.pdf`, pdfBytes(size))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 413, 413]);
    const usage = await companyUsage(owner);
    expect(usage.storedBytesUsed).toBe(size);
    expect(usage.storedBytesUsed).toBeLessThanOrEqual(usage.storedBytesLimit ?? 0);
  });
});
