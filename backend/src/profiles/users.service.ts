import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Not, type Repository } from 'typeorm';
import { ConflictError, UnauthorizedError, ValidationFailedError } from '../common/domain-errors';
import { FilesService, fileUrl } from '../files/files.service';
import type { UserDto } from './dto/user.dto';
import type { UpdateProfileDto } from './dto/update-profile.dto';
import { hashPassword, verifyPassword } from './password-hasher';
import { UserEntity } from './user.entity';

export const EMAIL_TAKEN = 'An account with this email already exists';
export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';

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
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly files: FilesService,
    private readonly dataSource: DataSource,
  ) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  findByGoogleSub(sub: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ googleSub: sub });
  }

  /**
   * Creates an account inside the caller's transaction. The first account of an installation becomes a
   * superadmin; an advisory lock makes "first" exact even when two people register at once.
   */
  async create(
    manager: EntityManager,
    input: {
      email: string;
      password: string | null;
      firstName: string;
      lastName: string;
      googleSub?: string;
    },
  ): Promise<UserEntity> {
    await manager.query('SELECT pg_advisory_xact_lock(7239115)');
    const email = normalizeEmail(input.email);
    const repo = manager.getRepository(UserEntity);
    if (await repo.existsBy({ email })) throw new ConflictError(EMAIL_TAKEN);
    const isFirst = !(await repo.exists());
    try {
      return await repo.save(
        repo.create({
          email,
          passwordHash: input.password ? await hashPassword(input.password) : null,
          firstName: input.firstName.slice(0, 100),
          lastName: input.lastName.slice(0, 200),
          googleSub: input.googleSub ?? null,
          isSuperadmin: isFirst,
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(EMAIL_TAKEN);
      throw error;
    }
  }

  async recordLogin(id: string): Promise<void> {
    await this.users.update({ id }, { lastLogin: new Date() });
  }

  async linkGoogle(id: string, sub: string): Promise<void> {
    await this.users.update({ id }, { googleSub: sub });
  }

  async profile(id: string): Promise<UserDto> {
    const user = await this.findById(id);
    if (!user) throw new UnauthorizedError('Not authenticated');
    return toUserDto(user);
  }

  async checkPassword(user: UserEntity, password: string): Promise<boolean> {
    return verifyPassword(user.passwordHash, password);
  }

  async updateProfile(id: string, input: UpdateProfileDto): Promise<UserDto> {
    const user = await this.findById(id);
    if (!user) throw new UnauthorizedError('Not authenticated');
    const changes: Partial<UserEntity> = {};
    if (input.name !== undefined) {
      const { firstName, lastName } = splitFullName(input.name);
      changes.firstName = firstName.slice(0, 100);
      changes.lastName = lastName.slice(0, 200);
    }
    if (input.bio !== undefined) changes.bio = input.bio.trim();
    if (input.email !== undefined && normalizeEmail(input.email) !== user.email) {
      // An email is an account's identity: changing it needs the password (accounts made with Google
      // and no password cannot change it here).
      if (!input.currentPassword)
        throw new ValidationFailedError('Current password is required to change your email');
      if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
        throw new ValidationFailedError(CURRENT_PASSWORD_INCORRECT);
      const email = normalizeEmail(input.email);
      if (await this.users.existsBy({ email, id: Not(id) })) throw new ConflictError(EMAIL_TAKEN);
      changes.email = email;
    }
    if (Object.keys(changes).length) {
      try {
        await this.users.update({ id }, changes);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(EMAIL_TAKEN);
        throw error;
      }
    }
    return this.profile(id);
  }

  async setPassword(id: string, password: string, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    await repo.update({ id }, { passwordHash: await hashPassword(password) });
  }

  /** Stores the new avatar and drops the old one, in one transaction. */
  async setAvatar(id: string, data: Buffer): Promise<UserDto> {
    const encoded = await this.files.reencodeImage(data);
    await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(UserEntity);
      const user = await repo.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw new UnauthorizedError('Not authenticated');
      const fileId = await this.files.storeEncoded(id, encoded, 'avatar', manager);
      await repo.update({ id }, { avatarFileId: fileId });
      if (user.avatarFileId) await this.files.remove(user.avatarFileId, manager);
    });
    return this.profile(id);
  }

  async promote(email: string): Promise<UserEntity | null> {
    const user = await this.findByEmail(email);
    if (!user) return null;
    await this.users.update({ id: user.id }, { isSuperadmin: true });
    return { ...user, isSuperadmin: true };
  }
}
