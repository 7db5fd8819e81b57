import { DataSource } from 'typeorm';
import { AuditEntryEntity } from '../src/audit/audit-entry.entity';
import { CompanyEntity } from '../src/companies/company.entity';
import { createTestApp, lastMailTo, type TestApp } from './app.test-util';

/** What the audit suites share: one app per suite, and ways to see the entries an action wrote. */
export interface AuditHarness {
  readonly t: TestApp;
  readonly db: DataSource;
  /** Runs the action and returns the entries it wrote. */
  written(action: () => Promise<unknown>): Promise<AuditEntryEntity[]>;
  /** The one entry of `entries` (the test fails on none or several). */
  only(entries: AuditEntryEntity[]): AuditEntryEntity;
  /** Request headers saying the request comes from `ip`, as the proxy in front of the app would. */
  from(ip: string, headers?: Record<string, string>): Record<string, string>;
  /** The token of the `path?token=` link last mailed to `email`. */
  mailToken(email: string, path: string): string;
  companyName(companyId: string): Promise<string>;
}

/** Starts an app for the enclosing suite (closed after it) and returns the audit helpers over it. */
export function useAuditApp(): AuditHarness {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  const app = (): TestApp => {
    if (!t) throw new Error('the audit app is not started yet (use it inside a test or hook)');
    return t;
  };
  const db = () => app().app.get(DataSource);

  /** The newest entry id now: what a test's action writes comes after it. */
  const mark = async (): Promise<string> => {
    const row = await db()
      .getRepository(AuditEntryEntity)
      .createQueryBuilder('a')
      .select('COALESCE(MAX(a.id), 0)::text', 'max')
      .getRawOne<{ max: string }>();
    return row?.max ?? '0';
  };
  const entriesSince = (since: string): Promise<AuditEntryEntity[]> =>
    db()
      .getRepository(AuditEntryEntity)
      .createQueryBuilder('a')
      .where('a.id > :since', { since })
      .orderBy('a.id', 'ASC')
      .getMany();

  return {
    get t() {
      return app();
    },
    get db() {
      return db();
    },
    async written(action) {
      const since = await mark();
      await action();
      return entriesSince(since);
    },
    only(entries) {
      expect(entries).toHaveLength(1);
      return entries[0];
    },
    from: (ip, headers = {}) => ({ ...headers, 'X-Forwarded-For': ip }),
    mailToken(email, path) {
      const match = new RegExp(`${path}\\?token=(\\S+)`).exec(lastMailTo(app(), email) ?? '');
      if (!match) throw new Error(`no ${path} link mailed to ${email}`);
      return decodeURIComponent(match[1]);
    },
    async companyName(companyId) {
      return (await db().getRepository(CompanyEntity).findOneByOrFail({ id: companyId })).name;
    },
  };
}
