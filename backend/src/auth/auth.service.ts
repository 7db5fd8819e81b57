import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import {
  ConflictError,
  DomainError,
  UnauthorizedError,
  ValidationFailedError,
} from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { hashPassword, verifyPassword } from '../profiles/password-hasher';
import {
  CURRENT_PASSWORD_INCORRECT,
  EMAIL_TAKEN,
  normalizeEmail,
  splitFullName,
  toUserDto,
  UsersService,
} from '../profiles/users.service';
import { JobQueue } from '../queue/job-queue';
import { ACCESS_TOKEN_TTL_S, AccessTokenService } from './access-token.service';
import { AccountRegistrationService } from './account-registration.service';
import { AccountTokensService } from './account-tokens.service';
import type { ChangePasswordDto, RegisterDto } from './dto/auth.dto';
import { SessionsService } from './sessions.service';
import type { UserDto } from '../profiles/dto/user.dto';
import { Database } from '../database/database';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.';
export const INVALID_VERIFICATION_LINK = 'This verification link is invalid or has expired.';
export const INVALID_EMAIL_CHANGE_LINK = 'This confirmation link is invalid or has expired.';
export const EMAIL_NOT_VERIFIED = 'Please verify your email first';
export const ACCOUNT_DISABLED = 'This account has been disabled.';
export const REGISTRATION_REFUSED =
  'Unable to create an account with these details. If you already have an account, sign in or reset your password.';
export const GOOGLE_ACCOUNT_UNVERIFIED =
  'An account with this email already exists but its address is not verified. We have emailed you a link to choose its password: follow it, then sign in with Google.';
const SESSION_ENDED = 'Your session has ended. Please sign in again.';

export interface SignedIn {
  accessToken: string;
  expiresIn: number;
  user: UserDto;
  /** Cookie value to set; null when the browser keeps the one it has. */
  refreshToken: string | null;
}

/** Registration that waits for the emailed link before anyone can sign in. */
export interface VerificationPending {
  verificationRequired: true;
  email: string;
}

export function isVerificationPending(
  outcome: SignedIn | VerificationPending,
): outcome is VerificationPending {
  return 'verificationRequired' in outcome;
}

/** How a session was started, as the audit log records it. */
export type SignInMethod = 'password' | 'google' | 'registration' | 'invitation' | 'sso';

interface SessionStart {
  userAgent?: string;
  /** The client's address (Express' req.ip: X-Forwarded-For from the proxies TRUST_PROXY names). */
  ip?: string;
  method: SignInMethod;
  /** The company whose identity provider vouched for this sign-in (single sign-on). */
  ssoCompanyId?: string;
}

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

export class EmailNotVerifiedError extends DomainError {
  constructor() {
    super('EMAIL_NOT_VERIFIED', EMAIL_NOT_VERIFIED);
  }
}

/** A platform administrator disabled the account: no sign-in of any kind, no refresh (403). */
export class AccountDisabledError extends DomainError {
  constructor() {
    super('FORBIDDEN', ACCOUNT_DISABLED);
  }
}

export class GoogleAccountUnverifiedError extends DomainError {
  constructor() {
    super('CONFLICT', GOOGLE_ACCOUNT_UNVERIFIED);
  }
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: Database,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly accessTokens: AccessTokenService,
    private readonly tokens: AccountTokensService,
    private readonly registration: AccountRegistrationService,
    private readonly queue: JobQueue,
    private readonly audit: AuditService,
  ) {}

  /**
   * A new account and a new company it owns, all or nothing, and a verification link by mail. When
   * verification is required nobody is signed in and the account is created in a job: the answer, and
   * its timing, are the same for an address that already has an account (whose owner is mailed).
   */
  async register(
    input: RegisterDto,
    userAgent?: string,
    ip?: string,
  ): Promise<SignedIn | VerificationPending> {
    const { firstName, lastName } = splitFullName(input.fullName);
    const email = normalizeEmail(input.email);
    const account = {
      email,
      passwordHash: await hashPassword(input.password),
      firstName,
      lastName,
      companyName: input.companyName,
    };
    if (this.config.requireEmailVerification) {
      await this.queue.enqueue('account.register', account);
      return { verificationRequired: true, email };
    }
    let userId: string;
    try {
      userId = await this.registration.createWithCompany(account, ip);
    } catch (error) {
      // Registration must not confirm that an address has an account (see REQUIRE_EMAIL_VERIFICATION).
      if (error instanceof ConflictError && error.message === EMAIL_TAKEN)
        throw new ConflictError(REGISTRATION_REFUSED);
      throw error;
    }
    await this.queue.enqueue('account.mail', { kind: 'verify-email', email });
    return this.startSession(userId, { userAgent, ip, method: 'registration' });
  }

  /**
   * Every refusal is audited (an unknown address and a wrong password alike: one insert each, so the
   * answer's timing tells nothing more than before).
   */
  async login(email: string, password: string, userAgent?: string, ip?: string): Promise<SignedIn> {
    const user = await this.users.findByEmail(email);
    const ok = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !ok) {
      await this.recordFailedSignIn(email, ip, { method: 'password' });
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
    // Said only to someone who knows the password.
    if (this.config.requireEmailVerification && !user.emailVerifiedAt) {
      await this.recordFailedSignIn(email, ip, { method: 'password', reason: 'email_not_verified' });
      throw new EmailNotVerifiedError();
    }
    return this.startSession(user.id, { userAgent, ip, method: 'password' });
  }

  async refresh(refreshToken: string | undefined): Promise<SignedIn> {
    const issued = refreshToken ? await this.sessions.rotate(refreshToken) : null;
    if (!issued) throw new UnauthorizedError(SESSION_ENDED);
    await this.refuseDisabled(issued.userId);
    return this.signedIn(issued.userId, issued.sessionId, issued.refreshToken);
  }

  async logout(refreshToken: string | undefined): Promise<void> {
    if (refreshToken) await this.sessions.revokeWithToken(refreshToken);
  }

  /** Answers the same whether or not the account exists: the lookup happens in the mail job. */
  async forgotPassword(email: string): Promise<void> {
    await this.queue.enqueue('account.mail', { kind: 'password-reset', email: normalizeEmail(email) });
  }

  /** Same answer whether or not the account exists or is already verified. */
  async resendVerification(email: string): Promise<void> {
    await this.queue.enqueue('account.mail', { kind: 'verify-email', email: normalizeEmail(email) });
  }

  /**
   * Uses the token (once, atomically), sets the password and ends every session of the account. The
   * link reached the account's mailbox, so it also proves the address.
   */
  async resetPassword(token: string, password: string, ip?: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const userId = await this.database.transaction(async (tx) => {
      const row = await this.tokens.consume(tx, token, 'password_reset');
      if (!row) throw new ValidationFailedError(INVALID_RESET_LINK);
      await this.users.setPasswordHash(row.userId, passwordHash, tx, { proven: !!row.email });
      if (row.email) await this.users.markEmailVerified(row.userId, row.email, tx);
      // Done by whoever holds the emailed link, nobody signed in: no actor.
      await this.audit.record(tx, {
        action: 'auth.password_reset',
        actor: null,
        target: { type: 'user', id: row.userId },
        ip,
      });
      return row.userId;
    });
    await this.sessions.revokeAllForUser(userId);
  }

  async verifyEmail(token: string): Promise<void> {
    await this.database.transaction(async (tx) => {
      const row = await this.tokens.consume(tx, token, 'email_verification');
      // A link sent to an address the account no longer has proves nothing; nor does one for an account
      // whose password is unproven (none is mailed to it: only choosing the password proves it).
      if (!row?.email) throw new ValidationFailedError(INVALID_VERIFICATION_LINK);
      const user = await this.users.findById(row.userId);
      if (user?.passwordUnproven) throw new ValidationFailedError(INVALID_VERIFICATION_LINK);
      await this.users.markEmailVerified(row.userId, row.email, tx);
    });
  }

  /** Follows the link mailed to a new address: the address becomes the account's, and the old one is told. */
  async confirmEmailChange(token: string, ip?: string): Promise<{ email: string }> {
    const changed = await this.database.transaction(async (tx) => {
      const row = await this.tokens.consume(tx, token, 'email_change');
      if (!row?.email) throw new ValidationFailedError(INVALID_EMAIL_CHANGE_LINK);
      const oldEmail = await this.users.confirmEmailChange(tx, row.userId, row.email);
      if (!oldEmail) throw new ValidationFailedError(INVALID_EMAIL_CHANGE_LINK);
      // Done by whoever holds the link mailed to the new address: no actor.
      await this.audit.record(tx, {
        action: 'auth.email_changed',
        actor: null,
        target: { type: 'user', id: row.userId, label: row.email },
        ip,
        details: { from: oldEmail, to: row.email },
      });
      return { oldEmail, email: row.email };
    });
    await this.queue.enqueue('account.mail', {
      kind: 'email-changed',
      oldEmail: changed.oldEmail,
      newEmail: changed.email,
    });
    return { email: changed.email };
  }

  /** Checks the current password, sets the new one, ends the other sessions and rotates this one. */
  async changePassword(
    userId: string,
    sessionId: string,
    input: ChangePasswordDto,
    ip?: string,
  ): Promise<SignedIn> {
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthorizedError('Not authenticated');
    if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new ValidationFailedError(CURRENT_PASSWORD_INCORRECT);
    const passwordHash = await hashPassword(input.newPassword);
    await this.database.transaction(async (tx) => {
      await this.users.setPasswordHash(userId, passwordHash, tx);
      await this.audit.record(tx, {
        action: 'auth.password_changed',
        actor: { id: userId, label: user.email },
        target: { type: 'user', id: userId, label: user.email },
        ip,
      });
    });
    await this.sessions.revokeAllForUser(userId, sessionId);
    const refreshToken = await this.sessions.reissue(sessionId);
    if (!refreshToken) throw new UnauthorizedError(SESSION_ENDED);
    return this.signedIn(userId, sessionId, refreshToken);
  }

  /**
   * Google accounts are keyed by `sub`. An existing account is linked only when Google vouches for the
   * email AND the account's own address was verified: otherwise someone who registered the address
   * first (with a password of their own) would be handed the real owner's Google sign-in. Such an
   * account is refused, not taken over, and its owner is mailed a password reset link: following it
   * proves the address, replaces the password and ends every session; then Google links. A new account gets a company of
   * its own, as registration does.
   */
  async googleLogin(identity: GoogleIdentity, userAgent?: string, ip?: string): Promise<SignedIn> {
    try {
      return await this.googleSignIn(identity, { userAgent, ip, method: 'google' });
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'UNAUTHORIZED' || error.code === 'CONFLICT'))
        await this.recordFailedSignIn(identity.email ?? `google:${identity.sub}`, ip, {
          method: 'google',
          reason: error.message,
        });
      throw error;
    }
  }

  private async googleSignIn(identity: GoogleIdentity, client: SessionStart): Promise<SignedIn> {
    const bySub = await this.users.findByGoogleSub(identity.sub);
    if (bySub) return this.startSession(bySub.id, client);
    if (!identity.email || !identity.emailVerified) {
      throw new UnauthorizedError('Google did not confirm this email address');
    }
    const email = normalizeEmail(identity.email);
    const byEmail = await this.users.findByEmail(email);
    if (byEmail) {
      if (byEmail.googleSub && byEmail.googleSub !== identity.sub)
        throw new UnauthorizedError('This email is linked to another Google account');
      if (!byEmail.emailVerifiedAt) {
        // Google vouches for the address: its owner is here. The password may be someone else's, so it
        // is not linked; a reset link goes to the address (choosing a password there proves it and ends
        // every session), then Google links.
        await this.queue.enqueue('account.mail', { kind: 'password-reset', email });
        throw new GoogleAccountUnverifiedError();
      }
      await this.users.linkGoogle(byEmail.id, identity.sub);
      return this.startSession(byEmail.id, client);
    }
    const owner = identity.firstName || email.split('@')[0];
    const userId = await this.registration.createWithCompany(
      {
        email,
        passwordHash: null,
        firstName: identity.firstName,
        lastName: identity.lastName,
        companyName: `${owner}'s Company`,
        googleSub: identity.sub,
        emailVerifiedAt: new Date(),
      },
      client.ip,
    );
    return this.startSession(userId, client);
  }

  /**
   * Signs in an account another feature has just created with its address proved (an invited
   * registration): the same session start as login, without a password check.
   */
  startSessionForNewAccount(userId: string, userAgent?: string, ip?: string): Promise<SignedIn> {
    return this.startSession(userId, { userAgent, ip, method: 'invitation' });
  }

  /**
   * Signs in an account a company's identity provider vouched for (single sign-on checked the
   * provider's answer and linked the account): the session remembers that company.
   */
  startSsoSession(userId: string, companyId: string, userAgent?: string, ip?: string): Promise<SignedIn> {
    return this.startSession(userId, { userAgent, ip, method: 'sso', ssoCompanyId: companyId });
  }

  /** A refused single sign-on, audited like any refused sign-in. */
  recordFailedSsoSignIn(label: string, ip: string | undefined, reason: string): Promise<void> {
    return this.recordFailedSignIn(label, ip, { method: 'sso', reason });
  }

  /** Every sign-in: the session, the last-login time and the audit entry commit together. */
  private async startSession(userId: string, client: SessionStart): Promise<SignedIn> {
    // Every way in (password, Google, registration, invitation) passes here: a disabled account stops,
    // and the attempt is audited like any other refused sign-in.
    const user = await this.users.findById(userId);
    if (user?.disabledAt) {
      await this.recordFailedSignIn(user.email, client.ip, {
        method: client.method,
        reason: 'account_disabled',
      });
      throw new AccountDisabledError();
    }
    const { sessionId, refreshToken } = await this.database.transaction(async (tx) => {
      const session = await this.sessions.create(userId, client.userAgent, tx, client.ssoCompanyId ?? null);
      await this.users.recordLogin(userId, tx);
      await this.audit.record(tx, {
        action: 'auth.sign_in',
        actor: { id: userId },
        target: { type: 'user', id: userId },
        ip: client.ip,
        details: client.ssoCompanyId
          ? { method: client.method, companyId: client.ssoCompanyId }
          : { method: client.method },
      });
      return session;
    });
    return this.signedIn(userId, sessionId, refreshToken);
  }

  /**
   * A refused sign-in changes nothing, so its entry stands alone. Writing it must not turn the 401 into a
   * 500: a failure here is logged, and the caller answers as it would have.
   */
  private async recordFailedSignIn(
    email: string,
    ip: string | undefined,
    details: { method: SignInMethod; reason?: string },
  ): Promise<void> {
    try {
      await this.audit.record(null, {
        action: 'auth.sign_in_failed',
        actor: { id: null, label: normalizeEmail(email) },
        ip,
        details,
      });
    } catch (error) {
      this.logger.warn(`could not record a failed sign-in: ${(error as Error).message}`);
    }
  }

  private async refuseDisabled(userId: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (user?.disabledAt) throw new AccountDisabledError();
  }

  /** The one shape of a sign-in answer: access token, the user as the client sees it, the cookie. */
  private async signedIn(userId: string, sessionId: string, refreshToken: string | null): Promise<SignedIn> {
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthorizedError(SESSION_ENDED);
    return {
      accessToken: this.accessTokens.sign(userId, sessionId),
      expiresIn: ACCESS_TOKEN_TTL_S,
      user: toUserDto(user),
      refreshToken,
    };
  }
}
