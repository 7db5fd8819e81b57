import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { SessionsService } from '../auth/sessions.service';
import type { CompanyScope } from '../common/company-scope';
import { ConflictError, ForbiddenError, NotFoundError } from '../common/domain-errors';
import type { CompanyRole } from '../contracts/companies';
import {
  MEMBER_PAGE_SIZE,
  type MemberListQuery,
  type MemberPage,
  type MemberView,
} from '../contracts/company-admin';
import { decodeKeyset, encodeKeyset } from '../common/keyset-cursor';
import {
  companyManagersRoom,
  companyRoom,
  RealtimePublisher,
  ssoRefusedRoom,
  userRoom,
} from '../realtime/realtime-publisher';
import { MembersRepository } from './members.repository';
import { isManagerRole, requireManager } from './require-manager';
import { Database, type Tx } from '../database/database';

export const MEMBER_NOT_FOUND = 'Member not found';
export const INVALID_MEMBER_CURSOR = 'Invalid cursor: load the users again from the start.';
export const ONLY_OWNER_MAKES_OWNERS = "Only an owner can make a member an owner or change an owner's role.";
export const ONLY_OWNER_REMOVES_OWNERS = 'Only an owner can remove an owner.';
export const LAST_OWNER = 'A company must keep at least one owner. Make another member an owner first.';

/**
 * Who belongs to a company and as what. Rules: only an owner makes or unmakes an owner (so an admin
 * cannot demote or remove one); the company never ends up without an owner. Changes take effect on the
 * member's open sockets at once (rooms joined or left) and reach the managers' screens live.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly database: Database,
    private readonly members: MembersRepository,
    private readonly realtime: RealtimePublisher,
    private readonly audit: AuditService,
    private readonly sessions: SessionsService,
  ) {}

  /** A page of the Company Users table, oldest member first; `cursor` is the page before's nextCursor. */
  async list(scope: CompanyScope, query: MemberListQuery = {}): Promise<MemberPage> {
    requireManager(scope);
    const limit = query.limit ?? MEMBER_PAGE_SIZE;
    const after = decodeKeyset(query.cursor, INVALID_MEMBER_CURSOR);
    const search = query.search?.trim() || undefined;
    const rows = await this.members.page(scope.companyId, { search, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      members: page.map((row) => row.member),
      nextCursor: rows.length > limit && last ? encodeKeyset(last.keyset) : null,
    };
  }

  count(companyId: string): Promise<number> {
    return this.members.count(companyId);
  }

  /** `ip`: the caller's address, for the audit log. */
  async changeRole(scope: CompanyScope, userId: string, role: CompanyRole, ip?: string): Promise<MemberView> {
    requireManager(scope);
    const before = await this.database.transaction(async (tx) => {
      const roles = await this.members.lockRoles(tx, scope.companyId);
      const callerRole = this.callerRole(roles, scope);
      const current = roles.get(userId);
      if (!current) throw new NotFoundError(MEMBER_NOT_FOUND);
      if (current === role) return current;
      if ((current === 'owner' || role === 'owner') && callerRole !== 'owner')
        throw new ForbiddenError(ONLY_OWNER_MAKES_OWNERS);
      if (current === 'owner' && ownerCount(roles) === 1) throw new ConflictError(LAST_OWNER);
      await this.members.setRole(tx, scope.companyId, userId, role);
      await this.audit.record(tx, {
        action: 'member.role_changed',
        actor: { id: scope.userId },
        target: { type: 'user', id: userId },
        company: { id: scope.companyId },
        ip,
        details: { from: current, to: role },
      });
      return current;
    });
    const member = await this.members.find(scope.companyId, userId);
    if (!member) throw new NotFoundError(MEMBER_NOT_FOUND);
    if (before !== role) {
      // Per session: becoming or ceasing to be an owner can change what "members must use SSO" refuses.
      const ownerChanged = before === 'owner' || role === 'owner';
      await this.sessions.refreshCompanyAccess(scope.companyId, { userId, notify: ownerChanged });
      this.realtime.toRoom([companyManagersRoom(scope.companyId), userRoom(userId)], 'member.updated', {
        companyId: scope.companyId,
        member,
      });
    }
    return member;
  }

  async remove(scope: CompanyScope, userId: string, ip?: string): Promise<void> {
    requireManager(scope);
    await this.database.transaction(async (tx) => {
      const roles = await this.members.lockRoles(tx, scope.companyId);
      const callerRole = this.callerRole(roles, scope);
      const current = roles.get(userId);
      if (!current) throw new NotFoundError(MEMBER_NOT_FOUND);
      if (current === 'owner' && callerRole !== 'owner') throw new ForbiddenError(ONLY_OWNER_REMOVES_OWNERS);
      if (current === 'owner' && ownerCount(roles) === 1) throw new ConflictError(LAST_OWNER);
      await this.members.remove(tx, scope.companyId, userId);
      await this.audit.record(tx, {
        action: 'member.removed',
        actor: { id: scope.userId },
        target: { type: 'user', id: userId },
        company: { id: scope.companyId },
        ip,
        details: { role: current },
      });
    });
    // Access ends now: the member's sockets leave the company's rooms before anyone is told.
    this.realtime.leaveRooms(userId, [
      companyRoom(scope.companyId),
      companyManagersRoom(scope.companyId),
      ssoRefusedRoom(scope.companyId),
    ]);
    this.realtime.toRoom([companyManagersRoom(scope.companyId), userRoom(userId)], 'member.removed', {
      companyId: scope.companyId,
      userId,
    });
  }

  /**
   * Adds a member who accepted an invitation, inside the caller's transaction (the invitation's status
   * changes in the same one). Someone already a member keeps the role they have.
   */
  addFromInvitation(
    tx: Tx,
    values: { companyId: string; userId: string; role: CompanyRole; invitedBy: string | null },
  ): Promise<{ role: CompanyRole; joined: boolean }> {
    return this.members.insertIfAbsent(tx, values);
  }

  /** Single sign-on's automatic join as User, inside the caller's transaction; never re-adds a removed member. */
  autoJoin(tx: Tx, companyId: string, userId: string): Promise<boolean> {
    return this.members.autoJoin(tx, companyId, userId);
  }

  /** After the commit of addFromInvitation: the new member's sockets join the rooms; managers see them. */
  async announceJoined(companyId: string, userId: string): Promise<void> {
    const member = await this.members.find(companyId, userId);
    if (!member) return;
    // Per session: a company that requires single sign-on keeps its rooms from the member's other sessions.
    await this.sessions.refreshCompanyAccess(companyId, { userId });
    this.realtime.toCompanyManagers(companyId, 'member.joined', { companyId, member });
  }

  /** The caller's role read under the lock: a manager demoted a moment ago acts no more. */
  private callerRole(roles: Map<string, CompanyRole>, scope: CompanyScope): CompanyRole {
    const role = roles.get(scope.userId);
    if (!role) throw new NotFoundError('Company not found');
    if (!isManagerRole(role)) throw new ForbiddenError();
    return role;
  }
}

function ownerCount(roles: Map<string, CompanyRole>): number {
  return [...roles.values()].filter((r) => r === 'owner').length;
}
