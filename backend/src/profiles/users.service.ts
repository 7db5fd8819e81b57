import { Injectable } from '@nestjs/common';
import { ConflictError, UnauthorizedError, ValidationFailedError } from '../common/domain-errors';
import { Database, type Tx } from '../database/database';
import { FilesService, fileUrl } from '../files/files.service';
import { JobQueue } from '../queue/job-queue';
import type { UserDto } from './dto/user.dto';
import type { UpdateProfileDto } from './dto/update-profile.dto';
import { hashPassword, verifyPassword } from './password-hasher';
import { type ProfileChanges, ProfilesRepository } from './profiles.repository';
import type { UserEntity } from './user.entity';

export const EMAIL_TAKEN = 'An account with this email already exists';
export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';
export const EMAIL_IN_USE = 'This email address is already used by another account.';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** "Ada Lovelace Byron" → first "Ada", last "Lovelace Byron" (the spec's rule). */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  return { firstName: words[0] ?? '', lastName: words.slice(1).join(' ') };
}

export function toUserDto(user: UserEntity): UserDto {
  return {
    id: user.id,
    email: user.email,
    name: [user.firstName, user.lastName].filter(Boolean).join(' '),
    firstName: user.firstName,
    lastName: user.lastName,
    bio: user.bio,
    avatar: fileUrl(user.avatarFileId),
    isSuperadmin: user.isSuperadmin,
    emailVerified: !!user.emailVerifiedAt,
    pendingEmail: user.pendingEmail,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { driverError?: { code?: string } })?.driverError?.code === '23505';
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: ProfilesRepository,
    private readonly files: FilesService,
    private readonly database: Database,
    private readonly queue: JobQueue,
  ) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(normalizeEmail(email));
  }

  findByGoogleSub(sub: string): Promise<UserEntity | null> {
    return this.users.findByGoogleSub(sub);
  }

  /**
   * Creates an account inside the caller's transaction. The first account of an installation becomes a
   * superadmin; an advisory lock makes "first" exact even when two people register at once.
   */
  async create(
    tx: Tx,
    input: {
      email: string;
      /** Hashed by the caller (before the transaction, so a taken address costs the same time). */
      passwordHash: string | null;
      firstName: string;
      lastName: string;
      googleSub?: string;
      emailVerifiedAt?: Date | null;
      /** The password was chosen without proof of the address (see UserEntity.passwordUnproven). */
      passwordUnproven?: boolean;
    },
  ): Promise<UserEntity> {
    await this.users.lockAccountCreation(tx);
    const email = normalizeEmail(input.email);
    if (await this.users.emailTaken(email, tx)) throw new ConflictError(EMAIL_TAKEN);
    const isFirst = !(await this.users.anyExists(tx));
    try {
      return await this.users.insert(tx, {
        email,
        passwordHash: input.passwordHash,
        emailVerifiedAt: input.emailVerifiedAt ?? null,
        firstName: input.firstName.slice(0, 100),
        lastName: input.lastName.slice(0, 200),
        googleSub: input.googleSub ?? null,
        passwordUnproven: input.passwordUnproven ?? false,
        isSuperadmin: isFirst,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(EMAIL_TAKEN);
      throw error;
    }
  }

  async recordLogin(id: string, tx?: Tx): Promise<void> {
    await this.users.update(id, { lastLogin: new Date() }, tx);
  }

  async linkGoogle(id: string, sub: string): Promise<void> {
    await this.users.update(id, { googleSub: sub });
  }

  async profile(id: string): Promise<UserDto> {
    const user = await this.findById(id);
    if (!user) throw new UnauthorizedError('Not authenticated');
    return toUserDto(user);
  }

  /**
   * Name and bio change at once. A new email only becomes pending: it replaces the current one when the
   * link mailed to it is followed (`confirmEmailChange`), so nobody can claim an address they do not
   * read. Whether the new address is taken is not said here (the mail job tells that address instead).
   */
  async updateProfile(id: string, input: UpdateProfileDto): Promise<UserDto> {
    const user = await this.findById(id);
    if (!user) throw new UnauthorizedError('Not authenticated');
    const changes: ProfileChanges = {};
    if (input.name !== undefined) {
      const { firstName, lastName } = splitFullName(input.name);
      changes.firstName = firstName.slice(0, 100);
      changes.lastName = lastName.slice(0, 200);
    }
    if (input.bio !== undefined) changes.bio = input.bio.trim();
    const email = input.email === undefined ? user.email : normalizeEmail(input.email);
    // Saving the form again with the pending address shown (and no password) changes nothing.
    const unchanged = email === user.email || (email === user.pendingEmail && !input.currentPassword);
    if (!unchanged) {
      // An email is an account's identity: changing it needs the password (accounts made with Google
      // and no password cannot change it here).
      if (!input.currentPassword)
        throw new ValidationFailedError('Current password is required to change your email');
      if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
        throw new ValidationFailedError(CURRENT_PASSWORD_INCORRECT);
      changes.pendingEmail = email;
    }
    await this.users.update(id, changes);
    if (changes.pendingEmail)
      await this.queue.enqueue('account.mail', { kind: 'email-change', userId: id, newEmail: email });
    return this.profile(id);
  }

  /**
   * Makes a pending email the account's email (the token proved the address), inside the caller's
   * transaction. Returns the old address, to be told of the change.
   */
  async confirmEmailChange(tx: Tx, id: string, email: string): Promise<string | null> {
    const user = await this.users.lock(tx, id);
    if (!user || user.pendingEmail !== email) return null;
    if (await this.users.emailTaken(email, tx, id)) throw new ConflictError(EMAIL_IN_USE);
    try {
      await this.users.update(id, { email, pendingEmail: null, emailVerifiedAt: new Date() }, tx);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(EMAIL_IN_USE);
      throw error;
    }
    return user.email;
  }

  /** The owner of the address proved it; only while it is still the account's address. */
  /**
   * The address is proved. Never for an account whose password is unproven: whoever chose that password
   * would keep a way into the verified account, so only a password set through a mailed link (which
   * clears the mark, setPasswordHash with `proven`) or a mailed invitation link lifts it.
   */
  markEmailVerified(id: string, email: string, tx?: Tx): Promise<boolean> {
    return this.users.markEmailVerified(id, normalizeEmail(email), tx);
  }

  async setPassword(id: string, password: string, tx?: Tx): Promise<void> {
    await this.users.update(id, { passwordHash: await hashPassword(password) }, tx);
  }

  /**
   * `proven`: the password comes through a link mailed to the account's address (a reset), so it is the
   * address owner's: the account's password is no longer unproven. A change made signed in is not.
   */
  async setPasswordHash(
    id: string,
    passwordHash: string,
    tx: Tx,
    options: { proven?: boolean } = {},
  ): Promise<void> {
    await this.users.update(id, { passwordHash, ...(options.proven ? { passwordUnproven: false } : {}) }, tx);
  }

  /** A signed-in account that also followed a link mailed to its address (a mailed invitation link). */
  async markPasswordProven(id: string, tx: Tx): Promise<void> {
    await this.users.markPasswordProven(id, tx);
  }

  /** Stores the new avatar and drops the old one, in one transaction. */
  async setAvatar(id: string, data: Buffer): Promise<UserDto> {
    const encoded = await this.files.reencodeImage(data);
    await this.database.transaction(async (tx) => {
      const user = await this.users.lock(tx, id);
      if (!user) throw new UnauthorizedError('Not authenticated');
      const fileId = await this.files.storeEncoded(id, encoded, 'avatar', tx);
      await this.users.update(id, { avatarFileId: fileId }, tx);
      if (user.avatarFileId) await this.files.remove(user.avatarFileId, tx);
    });
    return this.profile(id);
  }

  async promote(email: string): Promise<UserEntity | null> {
    const user = await this.findByEmail(email);
    if (!user) return null;
    await this.users.update(user.id, { isSuperadmin: true });
    return { ...user, isSuperadmin: true };
  }
}
