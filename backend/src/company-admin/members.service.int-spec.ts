import { DataSource } from 'typeorm';
import { forgedKeysetCursors } from '../../test/cursors';
import { useServiceContext } from '../../test/service-context';
import type { CompanyScope } from '../common/company-scope';
import { SessionsRepository } from '../auth/sessions.repository';
import { CompanyUserEntity } from '../companies/company-user.entity';
import { Database } from '../database/database';
import type { MemberPage } from '../contracts/company-admin';
import {
  INVALID_MEMBER_CURSOR,
  LAST_OWNER,
  MEMBER_NOT_FOUND,
  MembersService,
  ONLY_OWNER_MAKES_OWNERS,
  ONLY_OWNER_REMOVES_OWNERS,
} from './members.service';

/**
 * Company Users: the page by keyset on (created_at, id), oldest member first, the search by name or
 * email, and the role rules. What needs HTTP (the query string, 403/404 at the door) is in
 * company-admin.int-spec.ts.
 */
describe('company members (MembersService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let members: MembersService;
  beforeAll(() => (members = ctx.get(MembersService)));

  const memberships = () => ctx.get(DataSource).getRepository(CompanyUserEntity);

  /** The caller as the company guard sees them: their role in the company now. */
  const now = async (caller: CompanyScope): Promise<CompanyScope> => {
    const row = await memberships().findOneByOrFail({ companyId: caller.companyId, userId: caller.userId });
    return { ...caller, role: row.role };
  };
  const roles = async (companyId: string) =>
    Object.fromEntries((await memberships().findBy({ companyId })).map((m) => [m.userId, m.role]));

  describe('paging and search', () => {
    async function allPages(caller: CompanyScope, query: { limit?: number; search?: string }) {
      const pages: MemberPage[] = [];
      let cursor: string | null = null;
      do {
        pages.push(await members.list(caller, { ...query, ...(cursor ? { cursor } : {}) }));
        cursor = pages.at(-1)?.nextCursor ?? null;
        expect(pages.length).toBeLessThan(50);
      } while (cursor);
      return pages;
    }
    const idsOf = (pages: MemberPage[]) => pages.flatMap((p) => p.members.map((m) => m.userId));

    /** `count` users joined to the company, all at `joinedAt` when given (a run of equal join times). */
    async function addMembers(company: CompanyScope, prefix: string, count: number, joinedAt?: Date) {
      for (let g = 1; g <= count; g++) {
        const user = await ctx.newUser({
          email: `${prefix}${g}-${company.companyId}@paging.example`,
          firstName: 'Member',
          lastName: `${prefix} ${g}`,
        });
        await ctx.newMembership(company, user, 'user', { joinedAt });
      }
    }

    /** The order the database sorts members in: the reference every concatenation of pages must equal. */
    const expectedIds = async (companyId: string) =>
      (await memberships().find({ where: { companyId }, order: { createdAt: 'ASC', id: 'ASC' } })).map(
        (m) => m.userId,
      );

    it('pages through every member once, oldest first, stable under equal join times', async () => {
      const owner = await ctx.newMember();
      await addMembers(owner, 'same', 60, new Date('2030-01-01T00:00:00.654Z'));
      await addMembers(owner, 'later', 44);
      const pages = await allPages(owner, { limit: 50 });
      expect(pages.map((p) => p.members.length)).toEqual([50, 50, 5]);
      const ids = idsOf(pages);
      expect(ids).toEqual(await expectedIds(owner.companyId));
      expect(ids[0]).toBe(owner.userId);
      expect(new Set(ids).size).toBe(105);
      // Default size, and small pages through the run of equal timestamps.
      expect((await members.list(owner, {})).members).toHaveLength(50);
      expect(idsOf(await allPages(owner, { limit: 7 }))).toEqual(ids);
    });

    it('searches by name or email on the server, paged too, wildcards taken literally', async () => {
      const owner = await ctx.newMember();
      await addMembers(owner, 'alpha', 12);
      await addMembers(owner, 'beta', 5);
      const byName = await allPages(owner, { search: 'ALPHA', limit: 5 });
      expect(byName.map((p) => p.members.length)).toEqual([5, 5, 2]);
      expect(byName.flatMap((p) => p.members).every((m) => m.name.startsWith('Member alpha'))).toBe(true);
      const byEmail = await members.list(owner, { search: 'beta3-' });
      expect(byEmail.members.map((m) => m.email)).toEqual([`beta3-${owner.companyId}@paging.example`]);
      expect((await members.list(owner, { search: '%' })).members).toEqual([]);
      expect((await members.list(owner, { search: '_' })).members).toEqual([]);
      // A blank search is no search: every member.
      expect((await members.list(owner, { search: '  ' })).members).toHaveLength(18);
    });

    it('refuses a cursor it did not write', async () => {
      const owner = await ctx.newMember();
      await addMembers(owner, 'x', 3);
      const { nextCursor } = await members.list(owner, { limit: 2 });
      for (const cursor of forgedKeysetCursors(nextCursor ?? '')) {
        await expect(members.list(owner, { cursor })).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          message: INVALID_MEMBER_CURSOR,
        });
      }
    });

    it("never lists another company's members, whatever the cursor", async () => {
      const alice = await ctx.newMember();
      const bob = await ctx.newMember();
      await addMembers(alice, 'a', 6);
      await addMembers(bob, 'b', 6);
      const aliceCursor = (await members.list(alice, { limit: 2 })).nextCursor ?? '';
      const bobIds = new Set(await expectedIds(bob.companyId));
      const seen = (await members.list(bob, { limit: 200, cursor: aliceCursor })).members;
      for (const m of seen) expect(bobIds.has(m.userId)).toBe(true);
      expect(idsOf(await allPages(bob, { limit: 3 }))).toEqual(await expectedIds(bob.companyId));
    });
  });

  describe('role rules', () => {
    /** An owner with an admin and a plain member in their company. */
    async function company() {
      const owner = await ctx.newMember();
      const admin = await ctx.newMembership(owner, await ctx.newUser(), 'admin');
      const member = await ctx.newMembership(owner, await ctx.newUser(), 'user');
      return { owner, admin, member };
    }

    it('lets an admin manage users and admins, but not owners', async () => {
      const { owner, admin, member } = await company();
      expect((await members.changeRole(admin, member.userId, 'admin')).role).toBe('admin');
      expect((await members.changeRole(admin, member.userId, 'user')).role).toBe('user');
      const forbidden = (message: string) => ({ code: 'FORBIDDEN', message });
      await expect(members.changeRole(admin, member.userId, 'owner')).rejects.toMatchObject(
        forbidden(ONLY_OWNER_MAKES_OWNERS),
      );
      await expect(members.changeRole(admin, owner.userId, 'admin')).rejects.toMatchObject(
        forbidden(ONLY_OWNER_MAKES_OWNERS),
      );
      await expect(members.remove(admin, owner.userId)).rejects.toMatchObject(
        forbidden(ONLY_OWNER_REMOVES_OWNERS),
      );
      expect(await roles(owner.companyId)).toMatchObject({
        [owner.userId]: 'owner',
        [member.userId]: 'user',
      });
      // A plain member manages no one, and does not see the list.
      await expect(members.changeRole(member, admin.userId, 'user')).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      await expect(members.remove(member, admin.userId)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(members.list(member, {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
      expect((await roles(owner.companyId))[admin.userId]).toBe('admin');
      await members.remove(admin, member.userId);
      expect((await roles(owner.companyId))[member.userId]).toBeUndefined();
    });

    it('never leaves the company without an owner', async () => {
      const { owner, admin } = await company();
      const lastOwner = { code: 'CONFLICT', message: LAST_OWNER };
      await expect(members.changeRole(owner, owner.userId, 'admin')).rejects.toMatchObject(lastOwner);
      await expect(members.remove(owner, owner.userId)).rejects.toMatchObject(lastOwner);
      // With a second owner, either may step down, but the last one still cannot.
      await members.changeRole(owner, admin.userId, 'owner');
      await members.changeRole(await now(admin), owner.userId, 'user');
      await expect(members.changeRole(await now(admin), admin.userId, 'user')).rejects.toMatchObject(
        lastOwner,
      );
      await expect(members.remove(await now(admin), admin.userId)).rejects.toMatchObject(lastOwner);
      expect(await roles(owner.companyId)).toMatchObject({ [owner.userId]: 'user', [admin.userId]: 'owner' });
      await expect(members.list(await now(owner), {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });

    it('answers a user who is not a member with Member not found, and changes no one', async () => {
      const { owner, member } = await company();
      const outsider = await ctx.newMember();
      const notFound = { code: 'NOT_FOUND', message: MEMBER_NOT_FOUND };
      await expect(members.changeRole(owner, outsider.userId, 'admin')).rejects.toMatchObject(notFound);
      await expect(members.remove(owner, outsider.userId)).rejects.toMatchObject(notFound);
      expect((await roles(owner.companyId))[member.userId]).toBe('user');
      expect(await roles(outsider.companyId)).toEqual({ [outsider.userId]: 'owner' });
    });

    it('tells the managers and the member of a role change, and moves the member between rooms', async () => {
      const { owner, member } = await company();
      // The member is signed in on one device: its sockets are the session's.
      const sessionId = await ctx.get(SessionsRepository).insert({
        userId: member.userId,
        refreshHash: 'x'.repeat(64),
        rotatedAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
        userAgent: null,
      });
      const company_ = `company:${owner.companyId}`;
      const movesBefore = ctx.events.socketMoves.length;
      await members.changeRole(owner, member.userId, 'admin');
      expect(ctx.events.socketMoves.slice(movesBefore)).toEqual([
        {
          targets: [`session:${sessionId}`],
          leave: [`${company_}:sso-refused`],
          join: [company_, `${company_}:managers`],
        },
      ]);
      expect(ctx.events.toRooms.at(-1)).toMatchObject({
        rooms: [`${company_}:managers`, `user:${member.userId}`],
        event: 'member.updated',
        payload: { companyId: owner.companyId, member: { userId: member.userId, role: 'admin' } },
      });
      const demoted = ctx.events.socketMoves.length;
      await members.changeRole(owner, member.userId, 'user');
      expect(ctx.events.socketMoves.slice(demoted)).toEqual([
        {
          targets: [`session:${sessionId}`],
          leave: [`${company_}:managers`, `${company_}:sso-refused`],
          join: [company_],
        },
      ]);
    });

    it('single sign-on does not add back a member the managers removed; an accepted invitation does', async () => {
      const { owner, member } = await company();
      const db = ctx.get(Database);
      const autoJoin = () => db.transaction((tx) => members.autoJoin(tx, owner.companyId, member.userId));
      expect(await autoJoin()).toBe(false); // already a member
      await members.remove(owner, member.userId);
      expect(await autoJoin()).toBe(false);
      expect((await roles(owner.companyId))[member.userId]).toBeUndefined();
      const invited = await db.transaction((tx) =>
        members.addFromInvitation(tx, {
          companyId: owner.companyId,
          userId: member.userId,
          role: 'user',
          invitedBy: owner.userId,
        }),
      );
      expect(invited).toEqual({ role: 'user', joined: true });
      await members.remove(owner, member.userId);
      expect(await autoJoin()).toBe(false);
      // A person never removed joins.
      const newcomer = await ctx.newUser();
      expect(await db.transaction((tx) => members.autoJoin(tx, owner.companyId, newcomer.userId))).toBe(true);
    });
  });
});
