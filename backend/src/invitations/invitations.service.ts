import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { AuthService, type SignedIn, type VerificationPending } from '../auth/auth.service';
import type { CompanyScope } from '../common/company-scope';
import { ConflictError, ForbiddenError, NotFoundError } from '../common/domain-errors';
import { CompaniesService } from '../companies/companies.service';
import { MembersService } from '../company-admin/members.service';
import { personName, requireManager } from '../company-admin/require-manager';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { CompanyRole } from '../contracts/companies';
import type {
  AcceptInvitationResponse,
  InvitationLinkResponse,
  InvitationLookup,
  InvitationRole,
  InvitationView,
  InvitationWithLink,
} from '../contracts/invitations';
import { MailService } from '../mail/mail.service';
import { hashPassword } from '../profiles/password-hasher';
import { EMAIL_TAKEN, normalizeEmail, UsersService } from '../profiles/users.service';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import type { InvitationEntity } from './invitation.entity';
import { hashInvitationToken, InvitationTokens, invitationExpiry } from './invitation-tokens';
import { effectiveStatus, InvitationsRepository, toInvitationView } from './invitations.repository';
import { Database, type Tx } from '../database/database';

export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVALID_INVITATION = 'Invalid or expired invitation';
export const EMAIL_MISMATCH =
  'Email mismatch: Please sign in with the email address the invitation was sent to.';
export const ALREADY_MEMBER = 'This person is already a member of this company.';
export const ACCOUNT_EXISTS = 'An account with this email already exists. Sign in to accept the invitation.';
export const LINK_UNAVAILABLE =
  'The link of this invitation can no longer be shown. Resend the invitation to get a new one.';

const notPending = (action: string, status: string) =>
  new ConflictError(`This invitation is ${status}: only a pending invitation can be ${action}.`);

/** An invitation a token names, and whether that token was the mail's (see InvitationTokens). */
interface FoundInvitation {
  row: InvitationEntity;
  mailed: boolean;
}

/**
 * Invitations to join a company. Managers (owners and admins) create, resend, copy and delete them;
 * the invited person looks one up by its token and accepts it, signed in with the invited address or by
 * registering it. A token is the only credential: 256 random bits, stored as a SHA-256, bound to the
 * row's email, company and role (nothing in a request can change those). Each invitation has two: the
 * link's (also sealed, for Copy Invite Link; managers see it) and the mail's (only in the mail). Either
 * joins the company; only the mail's proves the address, since a manager can read the other one.
 * Events go out after commit.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly invitations: InvitationsRepository,
    private readonly tokens: InvitationTokens,
    private readonly members: MembersService,
    private readonly companies: CompaniesService,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly mail: MailService,
    private readonly realtime: RealtimePublisher,
    private readonly audit: AuditService,
  ) {}

  /** Newest first; pending rows past their expiry are stored as expired now (the spec's "on load"). */
  async list(scope: CompanyScope): Promise<InvitationView[]> {
    requireManager(scope);
    const now = new Date();
    const expired = await this.invitations.expireStale(scope.companyId, now);
    const rows = await this.invitations.list(scope.companyId);
    const views = rows.map((row) => toInvitationView(row, now));
    this.announceUpdated(
      scope.companyId,
      views.filter((v) => expired.includes(v.id)),
    );
    return views;
  }

  /** `ip` (here and below): the caller's address, for the audit log. */
  async create(
    scope: CompanyScope,
    input: { email: string; role: InvitationRole },
    ip?: string,
  ): Promise<InvitationWithLink> {
    requireManager(scope);
    const email = normalizeEmail(input.email);
    const existing = await this.users.findByEmail(email);
    if (existing && (await this.companies.roleOf(existing.id, scope.companyId)))
      throw new ConflictError(ALREADY_MEMBER);
    const issued = this.tokens.issue();
    const now = new Date();
    const expiresAt = invitationExpiry(now);
    const { id, expired } = await this.database.transaction(async (tx) => {
      // An old pending invitation to this address that has run out no longer blocks a new one.
      const stale = await this.invitations.expireStale(scope.companyId, now, tx, email);
      const newId = await this.invitations.insert(tx, {
        companyId: scope.companyId,
        email,
        role: input.role,
        tokenHash: issued.hash,
        tokenSealed: issued.sealed,
        mailTokenHash: issued.mailHash,
        invitedBy: scope.userId,
        expiresAt,
      });
      await this.recordInvitation(
        tx,
        'invitation.created',
        scope,
        { id: newId, email, role: input.role },
        ip,
      );
      return { id: newId, expired: stale };
    });
    this.announceUpdated(scope.companyId, await this.views(scope.companyId, expired));
    const invitation = await this.view(scope.companyId, id);
    this.realtime.toCompanyManagers(scope.companyId, 'invitation.created', {
      companyId: scope.companyId,
      invitation,
    });
    await this.sendMail(scope, invitation, this.linkFor(issued.mailToken));
    return { invitation, link: this.linkFor(issued.token) };
  }

  /** A new token and a new expiry: the old link stops working; the invitation is mailed again. */
  async resend(scope: CompanyScope, id: string, ip?: string): Promise<InvitationWithLink> {
    requireManager(scope);
    const issued = this.tokens.issue();
    const expiresAt = invitationExpiry();
    await this.database.transaction(async (tx) => {
      const row = await this.lockPending(tx, scope.companyId, id, 'resent');
      await this.invitations.reissue(tx, row.id, {
        tokenHash: issued.hash,
        tokenSealed: issued.sealed,
        mailTokenHash: issued.mailHash,
        expiresAt,
      });
      await this.recordInvitation(tx, 'invitation.resent', scope, row, ip);
    });
    const invitation = await this.view(scope.companyId, id);
    this.announceUpdated(scope.companyId, [invitation]);
    await this.sendMail(scope, invitation, this.linkFor(issued.mailToken));
    return { invitation, link: this.linkFor(issued.token) };
  }

  /** Copy Invite Link: the current link of a pending invitation, opened from its sealed copy. */
  async link(scope: CompanyScope, id: string): Promise<InvitationLinkResponse> {
    requireManager(scope);
    const row = await this.invitations.findInCompany(scope.companyId, id);
    if (!row) throw new NotFoundError(INVITATION_NOT_FOUND);
    const status = effectiveStatus(row);
    if (status !== 'pending') throw notPending('copied', status);
    const token = row.tokenSealed ? this.tokens.open(row.tokenSealed) : null;
    if (!token || hashInvitationToken(token) !== row.tokenHash) throw new ConflictError(LINK_UNAVAILABLE);
    return { link: this.linkFor(token) };
  }

  /** Deletes a pending invitation; its link stops working. */
  async remove(scope: CompanyScope, id: string, ip?: string): Promise<void> {
    requireManager(scope);
    await this.database.transaction(async (tx) => {
      const row = await this.lockPending(tx, scope.companyId, id, 'deleted');
      await this.invitations.remove(tx, scope.companyId, row.id);
      await this.recordInvitation(tx, 'invitation.deleted', scope, row, ip);
    });
    this.realtime.toCompanyManagers(scope.companyId, 'invitation.deleted', {
      companyId: scope.companyId,
      invitationId: id,
    });
  }

  /** What the invitation page shows; the token is the credential, so anyone holding it may look. */
  async lookup(token: string): Promise<InvitationLookup> {
    const { row } = await this.findValid(token);
    const account = await this.users.findByEmail(row.email);
    return {
      companyId: row.companyId,
      companyName: row.company?.name ?? '',
      email: row.email,
      role: row.role,
      inviterName: row.inviter ? personName(row.inviter) : null,
      expiresAt: row.expiresAt.toISOString(),
      accountExists: !!account,
    };
  }

  /**
   * The signed-in user accepts: only with the invited address. The membership (with the invitation's
   * role) and the status change commit together; through the mailed link, the address counts as proved
   * (and a password chosen before is the address owner's: they hold the account and the mailbox).
   */
  async accept(userId: string, token: string, ip?: string): Promise<AcceptInvitationResponse> {
    const found = await this.findValid(token);
    const { row } = found;
    const user = await this.users.findById(userId);
    if (!user || normalizeEmail(user.email) !== row.email) throw new ForbiddenError(EMAIL_MISMATCH);
    const outcome = await this.database.transaction(async (tx) => {
      const accepted = await this.acceptInTransaction(tx, found, userId, ip);
      if (found.mailed) {
        await this.users.markPasswordProven(userId, tx);
        await this.users.markEmailVerified(userId, row.email, tx);
      }
      return accepted;
    });
    await this.afterAccepted(row, userId, outcome.joined);
    return { companyId: row.companyId, companyName: row.company?.name ?? '', role: outcome.role };
  }

  /**
   * Invited sign-up: the account of the invited address, with no company of its own, the membership and
   * the accepted invitation, in one transaction. Through the mailed link the address is proved and the
   * account signed in like a login. Through a manager's copy of the link nothing about the address is
   * proved: the account is unverified and its password unproven (see UserEntity.passwordUnproven), and
   * the address is mailed a link to choose the password, which proves it. With
   * REQUIRE_EMAIL_VERIFICATION nobody is signed in before that.
   */
  async registerInvited(
    input: { token: string; firstName: string; lastName: string; password: string },
    userAgent?: string,
    ip?: string,
  ): Promise<SignedIn | VerificationPending> {
    const found = await this.findValid(input.token);
    const { row, mailed } = found;
    if (await this.users.findByEmail(row.email)) throw new ConflictError(ACCOUNT_EXISTS);
    const passwordHash = await hashPassword(input.password);
    const { userId, joined } = await this.database.transaction(async (tx) => {
      let user;
      try {
        user = await this.users.create(tx, {
          email: row.email,
          passwordHash,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          emailVerifiedAt: mailed ? new Date() : null,
          passwordUnproven: !mailed,
        });
      } catch (error) {
        if (error instanceof ConflictError && error.message === EMAIL_TAKEN)
          throw new ConflictError(ACCOUNT_EXISTS);
        throw error;
      }
      const outcome = await this.acceptInTransaction(tx, found, user.id, ip);
      return { userId: user.id, joined: outcome.joined };
    });
    await this.afterAccepted(row, userId, joined);
    if (!mailed) {
      await this.auth.resendVerification(row.email);
      if (this.config.requireEmailVerification) return { verificationRequired: true, email: row.email };
    }
    return this.auth.startSessionForNewAccount(userId, userAgent, ip);
  }

  /** Re-checks the row under its lock (a second accept waits here, then finds it accepted). */
  private async acceptInTransaction(
    tx: Tx,
    found: FoundInvitation,
    userId: string,
    ip: string | undefined,
  ): Promise<{ role: CompanyRole; joined: boolean }> {
    const now = new Date();
    const row = await this.invitations.lock(tx, { id: found.row.id });
    // Resent meanwhile: the token that was looked up no longer names the row.
    const sameToken = found.mailed
      ? row?.mailTokenHash === found.row.mailTokenHash
      : row?.tokenHash === found.row.tokenHash;
    if (!row || !sameToken || effectiveStatus(row, now) !== 'pending')
      throw new NotFoundError(INVALID_INVITATION);
    const outcome = await this.members.addFromInvitation(tx, {
      companyId: row.companyId,
      userId,
      role: row.role,
      invitedBy: row.invitedBy,
    });
    await this.invitations.markAccepted(tx, row.id, now);
    await this.audit.record(tx, {
      action: 'invitation.accepted',
      actor: { id: userId },
      target: { type: 'invitation', id: row.id, label: row.email },
      company: { id: row.companyId },
      ip,
      // `role`: what the invitation offered; someone already a member keeps the role they had.
      // `mailed`: through the mailed link (the address proved) or a manager's copy of it.
      details: { email: row.email, role: row.role, joined: outcome.joined, mailed: found.mailed },
    });
    return outcome;
  }

  private recordInvitation(
    tx: Tx,
    action: 'invitation.created' | 'invitation.resent' | 'invitation.deleted',
    scope: CompanyScope,
    invitation: { id: string; email: string; role: InvitationRole },
    ip: string | undefined,
  ): Promise<void> {
    return this.audit.record(tx, {
      action,
      actor: { id: scope.userId },
      target: { type: 'invitation', id: invitation.id, label: invitation.email },
      company: { id: scope.companyId },
      ip,
      details: { email: invitation.email, role: invitation.role },
    });
  }

  private async afterAccepted(found: InvitationEntity, userId: string, joined: boolean): Promise<void> {
    this.announceUpdated(found.companyId, await this.views(found.companyId, [found.id]));
    if (joined) await this.members.announceJoined(found.companyId, userId);
  }

  /** The invitation a token names, if it is pending and unexpired; otherwise the one readable 404. */
  private async findValid(token: string): Promise<FoundInvitation> {
    const found = await this.invitations.findByTokenHash(hashInvitationToken(token));
    if (!found || effectiveStatus(found.row) !== 'pending') throw new NotFoundError(INVALID_INVITATION);
    return found;
  }

  private async lockPending(
    tx: Tx,
    companyId: string,
    id: string,
    action: string,
  ): Promise<InvitationEntity> {
    const row = await this.invitations.lock(tx, { id, companyId });
    if (!row) throw new NotFoundError(INVITATION_NOT_FOUND);
    const status = effectiveStatus(row);
    if (status !== 'pending') throw notPending(action, status);
    return row;
  }

  private async view(companyId: string, id: string): Promise<InvitationView> {
    const row = await this.invitations.findInCompany(companyId, id);
    if (!row) throw new NotFoundError(INVITATION_NOT_FOUND);
    return toInvitationView(row);
  }

  private async views(companyId: string, ids: string[]): Promise<InvitationView[]> {
    return (await this.invitations.findManyInCompany(companyId, ids)).map((row) => toInvitationView(row));
  }

  private announceUpdated(companyId: string, views: InvitationView[]): void {
    for (const invitation of views)
      this.realtime.toCompanyManagers(companyId, 'invitation.updated', { companyId, invitation });
  }

  private linkFor(token: string): string {
    return `${this.config.appOrigin}/invitation?token=${encodeURIComponent(token)}`;
  }

  private async sendMail(scope: CompanyScope, invitation: InvitationView, link: string): Promise<void> {
    const company = await this.companies.getForUser(scope.userId, scope.companyId);
    await this.mail.sendInvitation(invitation.email, {
      companyName: company.name,
      inviterName: invitation.invitedBy?.name ?? null,
      role: invitation.role,
      link,
      expiresAt: new Date(invitation.expiresAt),
    });
  }
}
