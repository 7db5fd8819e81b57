import request from 'supertest';
import { uniqueEmail } from '../../test/app.test-util';
import { type Account, nextClientAddress, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { invite, joinAsNewMember } from '../../test/invitations.test-util';
import { CompanyUserEntity } from '../companies/company-user.entity';
import type { AuditEntryView, AuditPage } from '../contracts/audit';
import { UsersService } from '../profiles/users.service';
import { useAuditApp } from '../../test/audit.test-util';

/**
 * No entry is left when its change rolls back at commit; the two read routes filter, page and scope
 * the log.
 */
describe('audit log: rolled back with its change, and read (real PostgreSQL)', () => {
  const audit = useAuditApp();
  const { written, from } = audit;

  describe('rolled back with its change', () => {
    /**
     * Makes the transaction fail at COMMIT, after everything in it (the audit entry included) was
     * written: a deferred constraint trigger raising a unique violation for the rows `when` picks.
     */
    const failAtCommit = async (table: string, when: string): Promise<() => Promise<void>> => {
      const name = `audit_test_fail_${table}`;
      await audit.db.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$
        BEGIN RAISE unique_violation USING MESSAGE = 'forced by the audit test'; END $$ LANGUAGE plpgsql`);
      await audit.db.query(`CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT OR UPDATE ON ${table}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`);
      return async () => {
        await audit.db.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
        await audit.db.query(`DROP FUNCTION IF EXISTS ${name}()`);
      };
    };

    it('a role change that fails at commit leaves neither the change nor its entry', async () => {
      const owner = await registerAccount(audit.t, 'aud-rollback');
      const member = await joinAsNewMember(audit.t, owner, owner.companyId, 'user');
      const undo = await failAtCommit('company_users', `NEW.user_id = '${member.userId}'`);
      try {
        expect(
          await written(() =>
            request(audit.t.http)
              .patch(`/api/company/members/${member.userId}`)
              .set(as(owner, owner.companyId))
              .send({ role: 'admin' })
              .expect(409),
          ),
        ).toEqual([]);
      } finally {
        await undo();
      }
      const membership = await audit.db
        .getRepository(CompanyUserEntity)
        .findOneByOrFail({ companyId: owner.companyId, userId: member.userId });
      expect(membership.role).toBe('user');
    });

    it('a sign-in whose session cannot be stored leaves no sign-in entry', async () => {
      const account = await registerAccount(audit.t, 'aud-rollback-signin');
      const undo = await failAtCommit('sessions', `NEW.user_id = '${account.userId}'`);
      try {
        expect(
          await written(() =>
            request(audit.t.http)
              .post('/api/auth/login')
              .set(from(nextClientAddress()))
              .send({ email: account.email, password: account.password })
              .expect(409),
          ),
        ).toEqual([]);
      } finally {
        await undo();
      }
    });
  });

  describe('reading: GET /api/admin/audit and GET /api/company/activity', () => {
    let superadmin: Account;
    let owner: Account;
    let admin: Account;
    let member: Account;
    let other: Account;

    beforeAll(async () => {
      superadmin = await registerAccount(audit.t, 'aud-super');
      await audit.t.app.get(UsersService).promote(superadmin.email);
      owner = await registerAccount(audit.t, 'aud-reader');
      admin = await joinAsNewMember(audit.t, owner, owner.companyId, 'admin');
      member = await joinAsNewMember(audit.t, owner, owner.companyId, 'user');
      other = await registerAccount(audit.t, 'aud-other');
      // Some history in both companies.
      await request(audit.t.http)
        .patch(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .send({ role: 'admin' })
        .expect(200);
      await request(audit.t.http)
        .patch(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .send({ role: 'user' })
        .expect(200);
      await invite(audit.t, other, other.companyId, uniqueEmail('aud-other-invitee'));
      await request(audit.t.http)
        .post('/api/auth/login')
        .set(from(nextClientAddress()))
        .send({ email: owner.email, password: 'wrong password here' })
        .expect(401);
    });

    const adminLog = (query: Record<string, string> = {}, account = superadmin) =>
      request(audit.t.http).get('/api/admin/audit').query(query).set(as(account, null));
    const activity = (query: Record<string, string> = {}, account = owner, companyId = owner.companyId) =>
      request(audit.t.http).get('/api/company/activity').query(query).set(as(account, companyId));

    it('shows superadmins every entry, newest first, in the contract shape', async () => {
      const res = await adminLog({ limit: '5' }).expect(200);
      const page = res.body as AuditPage;
      expect(page.entries).toHaveLength(5);
      const ids = page.entries.map((e) => BigInt(e.id));
      expect([...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(ids);
      expect(page.nextCursor).toBe(page.entries[4].id);
      const failed = page.entries.find((e) => e.action === 'auth.sign_in_failed') as AuditEntryView;
      expect(failed).toEqual({
        id: expect.any(String),
        action: 'auth.sign_in_failed',
        actor: { id: null, label: owner.email },
        target: null,
        company: null,
        ip: expect.stringMatching(/^10\./),
        details: { method: 'password' },
        createdAt: expect.any(String),
      });
      expect(new Date(failed.createdAt).toISOString()).toBe(failed.createdAt);
    });

    it('filters by action, actor (id or email prefix, any case) and company', async () => {
      const byAction = (await adminLog({ action: 'member.role_changed', limit: '200' }).expect(200))
        .body as AuditPage;
      expect(byAction.entries.length).toBeGreaterThanOrEqual(2);
      expect(new Set(byAction.entries.map((e) => e.action))).toEqual(new Set(['member.role_changed']));

      const byId = (await adminLog({ actor: owner.userId, limit: '200' }).expect(200)).body as AuditPage;
      expect(byId.entries.length).toBeGreaterThan(0);
      expect(byId.entries.every((e) => e.actor?.id === owner.userId)).toBe(true);

      const prefix = owner.email.slice(0, owner.email.indexOf('@')).toUpperCase();
      const byEmail = (await adminLog({ actor: prefix, limit: '200' }).expect(200)).body as AuditPage;
      const actions = byEmail.entries.map((e) => e.action);
      // The owner's own actions, and the failed sign-in that tried the owner's address.
      expect(actions).toEqual(expect.arrayContaining(['member.role_changed', 'auth.sign_in_failed']));
      expect(byEmail.entries.every((e) => e.actor?.label === owner.email)).toBe(true);
      // Wildcards are letters: '%' matches nobody's address.
      expect(((await adminLog({ actor: '%' }).expect(200)).body as AuditPage).entries).toEqual([]);

      const byCompany = (await adminLog({ companyId: other.companyId }).expect(200)).body as AuditPage;
      expect(byCompany.entries.map((e) => e.action)).toEqual(['invitation.created', 'company.created']);
      expect(byCompany.entries.every((e) => e.company?.id === other.companyId)).toBe(true);

      const combined = (
        await adminLog({
          action: 'member.role_changed',
          actor: admin.userId,
          companyId: owner.companyId,
        }).expect(200)
      ).body as AuditPage;
      expect(combined.entries).toEqual([]);
      // Empty filters are no filters (a form sends every field).
      expect(
        (
          (await adminLog({ action: '', actor: '', companyId: '', before: '', limit: '3' }).expect(200))
            .body as AuditPage
        ).entries,
      ).toHaveLength(3);
    });

    it('pages by cursor without gaps or repeats', async () => {
      const all = (await adminLog({ companyId: owner.companyId, limit: '200' }).expect(200))
        .body as AuditPage;
      expect(all.nextCursor).toBeNull();
      const seen: string[] = [];
      let before: string | null = null;
      do {
        const query: Record<string, string> = { companyId: owner.companyId, limit: '2' };
        if (before) query.before = before;
        const page = (await adminLog(query).expect(200)).body as AuditPage;
        expect(page.entries.length).toBeLessThanOrEqual(2);
        seen.push(...page.entries.map((e) => e.id));
        before = page.nextCursor;
      } while (before);
      expect(seen).toEqual(all.entries.map((e) => e.id));
      expect(seen.length).toBeGreaterThanOrEqual(6);
    });

    it('answers a readable 400 for a bad filter or cursor', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ action: 'auth.nope' }, 'Unknown action: choose one of the audit log actions.'],
        [{ before: 'abc' }, 'before must be an audit entry id (the nextCursor of the previous page)'],
        [
          { before: '99999999999999999999' },
          'before must be an audit entry id (the nextCursor of the previous page)',
        ],
        [{ limit: '0' }, 'limit must be between 1 and 200'],
        [{ limit: '201' }, 'limit must be between 1 and 200'],
        [{ limit: 'ten' }, 'limit must be a whole number'],
        [{ companyId: 'not-a-company' }, 'companyId must be a company id'],
        [{ actor: 'x'.repeat(321) }, 'actor must be at most 320 characters'],
        [{ sort: 'asc' }, 'Unknown field "sort".'],
      ];
      for (const [query, message] of cases) {
        const res = await adminLog(query).expect(400);
        expect(res.body.message).toBe(message);
      }
      // The same rules on a company's activity, which takes no company filter.
      expect((await activity({ before: '-1' }).expect(400)).body.message).toBe(
        'before must be an audit entry id (the nextCursor of the previous page)',
      );
      expect((await activity({ companyId: other.companyId }).expect(400)).body.message).toBe(
        'Unknown field "companyId".',
      );
    });

    it('refuses the platform log to everyone but superadmins', async () => {
      for (const account of [owner, admin, member, other]) {
        const res = await adminLog({}, account).expect(403);
        expect(res.body.message).toBe('Only platform administrators can do this.');
      }
      await request(audit.t.http).get('/api/admin/audit').expect(401);
    });

    it("shows a company's owners and admins that company's entries only", async () => {
      for (const reader of [owner, admin]) {
        const page = (await activity({ limit: '200' }, reader).expect(200)).body as AuditPage;
        expect(page.entries.length).toBeGreaterThan(0);
        expect(page.entries.every((e) => e.company?.id === owner.companyId)).toBe(true);
        // Sign-ins (no company) and the other company's invitation are not there.
        expect(page.entries.some((e) => e.action.startsWith('auth.'))).toBe(false);
      }
      const roleChanges = (await activity({ action: 'member.role_changed' }).expect(200)).body as AuditPage;
      expect(roleChanges.entries.map((e) => [e.actor?.label, e.target?.label, e.details])).toEqual([
        [owner.email, member.email, { from: 'admin', to: 'user' }],
        [owner.email, member.email, { from: 'user', to: 'admin' }],
      ]);
      const byActor = (await activity({ actor: admin.email.toUpperCase() }).expect(200)).body as AuditPage;
      expect(byActor.entries.every((e) => e.actor?.id === admin.userId)).toBe(true);

      const otherPage = (await activity({}, other, other.companyId).expect(200)).body as AuditPage;
      expect(otherPage.entries.map((e) => e.action)).toEqual(['invitation.created', 'company.created']);

      // A plain member is refused; an outsider does not see the company at all.
      await activity({}, member).expect(403);
      expect((await activity({}, other).expect(404)).body.message).toBe('Company not found');
      expect((await activity({}, superadmin).expect(404)).body.message).toBe('Company not found');
    });
  });
});
