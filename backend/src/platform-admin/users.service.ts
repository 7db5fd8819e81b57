import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { AccountTokensService } from '../auth/account-tokens.service';
import { SessionsService } from '../auth/sessions.service';
import type { AuthUser } from '../common/current-user.decorator';
import { ConflictError, ForbiddenError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  PLATFORM_PAGE_SIZE,
  type InvitePlatformUserRequest,
  type PlatformUserPage,
  type PlatformUserView,
  type UpdatePlatformUserRequest,
} from '../contracts/platform-admin';
import { MailService } from '../mail/mail.service';
import { EMAIL_TAKEN, normalizeEmail, splitFullName, UsersService } from '../profiles/users.service';
import { JobQueue } from '../queue/job-queue';
import { SUPERADMIN_REQUIRED } from './superadmin.guard';
import { PlatformUsersRepository } from './users.repository';
import { Database, type Tx } from '../database/database';

export const USER_NOT_FOUND = 'User not found';
export const LAST_SUPERADMIN = 'The platform needs at least one active super admin.';
export const CANNOT_DISABLE_SELF = 'You cannot disable your own account.';
export const INVITED_EMAIL_TAKEN = 'An account with this email already exists.';
export const NOTHING_TO_CHANGE = 'Nothing to change: send isSuperadmin or disabled.';
export const INVALID_CURSOR = 'Invalid cursor';
/** What a disabled account's open pages are told as they are signed out. */
export const DISABLED_SESSION_REASON = 'This account has been disabled.';

/** The set-your-password link of a platform invitation (a password reset link that lasts longer). */
export const ACCOUNT_INVITATION_DAYS = 7;

/** Who acts, and from where: for the audit log. */
export interface AdminActor {
  user: AuthUser;
  ip?: string;
}

export function encodeCursor(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64url');
}

/** The value inside a cursor, or a 400: a cursor is only ever one this API handed out. */
export function decodeCursor(cursor: string | undefined, maxLength = 400): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const value = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!value || value.length > maxLength || encodeCursor(value) !== cursor)
    throw new ValidationFailedError(INVALID_CURSOR);
  return value;
}

/**
 * User Management: every account of the installation. Superadmins only (the controller's guard; every
 * change also re-reads the caller under the same lock as its target, so an admin demoted a moment ago
 * acts no more). Rules: the platform always keeps an active superadmin; nobody disables themself; a
 * disabled account's sessions end at once and it cannot sign in again until enabled. Every change is
 * audited in its own transaction.
 */
@Injectable()
export class PlatformUsersService {
  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: PlatformUsersRepository,
    private readonly accounts: UsersService,
    private readonly tokens: AccountTokensService,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    private readonly queue: JobQueue,
    private readonly audit: AuditService,
  ) {}

  async list(query: { search?: string; cursor?: string; limit?: number }): Promise<PlatformUserPage> {
    const limit = query.limit ?? PLATFORM_PAGE_SIZE;
    const search = query.search?.trim() || undefined;
    const after = decodeCursor(query.cursor, 320);
    const rows = await this.users.page({ search, after, limit: limit + 1 });
    const users = rows.slice(0, limit);
    const more = rows.length > limit;
    return { users, nextCursor: more ? encodeCursor(users[users.length - 1].email) : null };
  }

  /**
   * Makes the account (no password, no company yet) and mails a link to choose a password: a password
   * reset token that lasts ACCOUNT_INVITATION_DAYS. Following it also proves the address.
   */
  async invite(actor: AdminActor, input: InvitePlatformUserRequest): Promise<PlatformUserView> {
    const email = normalizeEmail(input.email);
    const { firstName, lastName } = splitFullName(input.name);
    const { user, token } = await this.database.transaction(async (tx) => {
      await this.requireActiveSuperadmin(tx, actor);
      let created;
      try {
        created = await this.accounts.create(tx, { email, passwordHash: null, firstName, lastName });
      } catch (error) {
        if (error instanceof ConflictError && error.message === EMAIL_TAKEN)
          throw new ConflictError(INVITED_EMAIL_TAKEN);
        throw error;
      }
      const token = await this.tokens.issue(created.id, 'password_reset', email, {
        tx,
        ttlMs: ACCOUNT_INVITATION_DAYS * 24 * 3600 * 1000,
      });
      await this.audit.record(tx, {
        action: 'user.invited',
        actor: { id: actor.user.id },
        target: { type: 'user', id: created.id, label: email },
        ip: actor.ip,
        details: { name: input.name.trim() },
      });
      return { user: created, token };
    });
    await this.mail.sendAccountInvitation(email, {
      name: input.name.trim(),
      link: `${this.config.appOrigin}/reset-password?token=${encodeURIComponent(token)}`,
      days: ACCOUNT_INVITATION_DAYS,
    });
    return this.view(user.id);
  }

  /** The same mail as Forgot password (the mail job issues the token), sent for the account. */
  async sendPasswordReset(actor: AdminActor, userId: string): Promise<void> {
    await this.database.transaction(async (tx) => {
      await this.requireActiveSuperadmin(tx, actor);
      const user = await this.users.find(userId, tx);
      if (!user) throw new NotFoundError(USER_NOT_FOUND);
      await this.audit.record(tx, {
        action: 'user.password_reset_sent',
        actor: { id: actor.user.id },
        target: { type: 'user', id: user.id, label: user.email },
        ip: actor.ip,
      });
      // Last, so that a queue that refuses the job rolls the audit entry back with it.
      await this.queue.enqueue('account.mail', { kind: 'password-reset', email: user.email });
    });
  }

  async update(
    actor: AdminActor,
    userId: string,
    input: UpdatePlatformUserRequest,
  ): Promise<PlatformUserView> {
    if (input.isSuperadmin === undefined && input.disabled === undefined)
      throw new ValidationFailedError(NOTHING_TO_CHANGE);
    const revokedSessions = await this.database.transaction(async (tx) => {
      const { target, activeSuperadmins } = await this.users.lockWithSuperadmins(tx, userId);
      if (!activeSuperadmins.some((u) => u.id === actor.user.id))
        throw new ForbiddenError(SUPERADMIN_REQUIRED);
      if (!target) throw new NotFoundError(USER_NOT_FOUND);
      const isActiveSuperadmin = target.isSuperadmin && !target.disabled;
      const othersActive = activeSuperadmins.filter((u) => u.id !== target.id).length;

      if (input.disabled === true && target.id === actor.user.id)
        throw new ConflictError(CANNOT_DISABLE_SELF);
      const demoting = input.isSuperadmin === false && target.isSuperadmin;
      const disabling = input.disabled === true && !target.disabled;
      if ((demoting || disabling) && isActiveSuperadmin && othersActive === 0)
        throw new ConflictError(LAST_SUPERADMIN);

      const record = (action: Parameters<AuditService['record']>[1]['action']) =>
        this.audit.record(tx, {
          action,
          actor: { id: actor.user.id },
          target: { type: 'user', id: target.id, label: target.email },
          ip: actor.ip,
        });
      if (input.isSuperadmin !== undefined && input.isSuperadmin !== target.isSuperadmin) {
        await this.users.setSuperadmin(tx, target.id, input.isSuperadmin);
        await record(input.isSuperadmin ? 'user.superadmin_granted' : 'user.superadmin_revoked');
      }
      let revoked: string[] = [];
      if (input.disabled !== undefined && input.disabled !== target.disabled) {
        await this.users.setDisabled(tx, target.id, input.disabled);
        if (input.disabled) revoked = await this.sessions.revokeAllInTransaction(tx, target.id);
        await record(input.disabled ? 'user.disabled' : 'user.enabled');
      }
      return revoked;
    });
    // After the commit: the account's open pages are told and their sockets disconnected.
    this.sessions.endSessions(revokedSessions, DISABLED_SESSION_REASON);
    return this.view(userId);
  }

  /** The caller, re-read under a lock: still an active superadmin (a demotion a moment ago counts). */
  private async requireActiveSuperadmin(tx: Tx, actor: AdminActor): Promise<void> {
    if (!(await this.users.isActiveSuperadmin(tx, actor.user.id)))
      throw new ForbiddenError(SUPERADMIN_REQUIRED);
  }

  private async view(userId: string): Promise<PlatformUserView> {
    const user = await this.users.find(userId);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    return user;
  }
}
