import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan, type Repository } from 'typeorm';
import { CompaniesService } from '../companies/companies.service';
import { ConflictError, UnauthorizedError, ValidationFailedError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MailService } from '../mail/mail.service';
import { verifyPassword } from '../profiles/password-hasher';
import {
  CURRENT_PASSWORD_INCORRECT,
  EMAIL_TAKEN,
  normalizeEmail,
  splitFullName,
  toUserDto,
  UsersService,
} from '../profiles/users.service';
import { ACCESS_TOKEN_TTL_S, AccessTokenService } from './access-token.service';
import { AuthTokenEntity } from './auth-token.entity';
import type { ChangePasswordDto, RegisterDto } from './dto/auth.dto';
import { SessionsService, sha256 } from './sessions.service';
import type { UserDto } from '../profiles/dto/user.dto';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.';
export const REGISTRATION_REFUSED =
  'Unable to create an account with these details. If you already have an account, sign in or reset your password.';
const RESET_TTL_MS = 60 * 60 * 1000;

export interface SignedIn {
  accessToken: string;
  expiresIn: number;
  user: UserDto;
  /** Cookie value to set; null when the browser keeps the one it has. */
  refreshToken: string | null;
}

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(AuthTokenEntity) private readonly tokens: Repository<AuthTokenEntity>,
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    private readonly sessions: SessionsService,
    private readonly accessTokens: AccessTokenService,
    private readonly mail: MailService,
  ) {}

  /** A new account and a new company it owns, in one transaction: all or nothing. */
  async register(input: RegisterDto, userAgent?: string): Promise<SignedIn> {
    const { firstName, lastName } = splitFullName(input.fullName);
    let userId: string;
    try {
      userId = await this.dataSource.transaction(async (manager) => {
        const user = await this.users.create(manager, {
          email: input.email,
          password: input.password,
          firstName,
          lastName,
        });
        await this.companies.createWithOwner(user.id, input.companyName, manager);
        return user.id;
      });
    } catch (error) {
      // Registration must not confirm that an address has an account.
      if (error instanceof ConflictError && error.message === EMAIL_TAKEN)
        throw new ConflictError(REGISTRATION_REFUSED);
      throw error;
    }
    return this.startSession(userId, userAgent);
  }

  async login(email: string, password: string, userAgent?: string): Promise<SignedIn> {
    const user = await this.users.findByEmail(email);
    const ok = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !ok) throw new UnauthorizedError(INVALID_CREDENTIALS);
    return this.startSession(user.id, userAgent);
  }

  async refresh(refreshToken: string | undefined): Promise<SignedIn> {
    const issued = refreshToken ? await this.sessions.rotate(refreshToken) : null;
    if (!issued) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    const user = await this.users.findById(issued.userId);
    if (!user) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return {
      accessToken: this.accessTokens.sign(user.id, issued.sessionId),
      expiresIn: ACCESS_TOKEN_TTL_S,
      user: toUserDto(user),
      refreshToken: issued.refreshToken,
    };
  }

  async logout(refreshToken: string | undefined): Promise<void> {
    const sessionId = refreshToken ? SessionsService.sessionIdOf(refreshToken) : null;
    if (sessionId) await this.sessions.revoke(sessionId);
  }

  /** Answers the same whether or not the account exists; the email does the telling. */
  async forgotPassword(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await this.tokens.save(
      this.tokens.create({
        userId: user.id,
        purpose: 'password_reset',
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + RESET_TTL_MS),
      }),
    );
    const link = `${this.config.appOrigin}/reset-password?token=${encodeURIComponent(token)}`;
    await this.mail.sendPasswordReset(user.email, link);
  }

  /** Uses the token (once, atomically), sets the password and ends every session of the account. */
  async resetPassword(token: string, password: string): Promise<void> {
    const userId = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(AuthTokenEntity);
      const row = await repo.findOne({
        where: {
          tokenHash: sha256(token),
          purpose: 'password_reset',
          usedAt: IsNull(),
          expiresAt: MoreThan(new Date()),
        },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) throw new ValidationFailedError(INVALID_RESET_LINK);
      // Every outstanding reset link of the account dies with this one.
      await repo.update({ userId: row.userId, usedAt: IsNull() }, { usedAt: new Date() });
      await this.users.setPassword(row.userId, password, manager);
      return row.userId;
    });
    await this.sessions.revokeAllForUser(userId);
  }

  /** Checks the current password, sets the new one, ends the other sessions and rotates this one. */
  async changePassword(userId: string, sessionId: string, input: ChangePasswordDto): Promise<SignedIn> {
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthorizedError('Not authenticated');
    if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new ValidationFailedError(CURRENT_PASSWORD_INCORRECT);
    await this.users.setPassword(userId, input.newPassword);
    await this.sessions.revokeAllForUser(userId, sessionId);
    const refreshToken = await this.sessions.reissue(sessionId);
    if (!refreshToken) throw new UnauthorizedError('Your session has ended. Please sign in again.');
    return {
      accessToken: this.accessTokens.sign(userId, sessionId),
      expiresIn: ACCESS_TOKEN_TTL_S,
      user: toUserDto(user),
      refreshToken,
    };
  }

  /**
   * Google accounts are keyed by `sub`. An existing account is linked only when Google vouches for the
   * email; a new account gets a company of its own, as registration does.
   */
  async googleLogin(identity: GoogleIdentity, userAgent?: string): Promise<SignedIn> {
    const bySub = await this.users.findByGoogleSub(identity.sub);
    if (bySub) return this.startSession(bySub.id, userAgent);
    if (!identity.email || !identity.emailVerified) {
      throw new UnauthorizedError('Google did not confirm this email address');
    }
    const email = normalizeEmail(identity.email);
    const byEmail = await this.users.findByEmail(email);
    if (byEmail) {
      if (byEmail.googleSub && byEmail.googleSub !== identity.sub)
        throw new UnauthorizedError('This email is linked to another Google account');
      await this.users.linkGoogle(byEmail.id, identity.sub);
      return this.startSession(byEmail.id, userAgent);
    }
    const userId = await this.dataSource.transaction(async (manager) => {
      const user = await this.users.create(manager, {
        email,
        password: null,
        firstName: identity.firstName,
        lastName: identity.lastName,
        googleSub: identity.sub,
      });
      const owner = identity.firstName || email.split('@')[0];
      await this.companies.createWithOwner(user.id, `${owner}'s Company`, manager);
      return user.id;
    });
    return this.startSession(userId, userAgent);
  }

  private async startSession(userId: string, userAgent?: string): Promise<SignedIn> {
    const { sessionId, refreshToken } = await this.sessions.create(userId, userAgent);
    await this.users.recordLogin(userId);
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthorizedError('Not authenticated');
    return {
      accessToken: this.accessTokens.sign(userId, sessionId),
      expiresIn: ACCESS_TOKEN_TTL_S,
      user: toUserDto(user),
      refreshToken,
    };
  }
}
