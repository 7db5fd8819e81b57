import { Injectable } from '@nestjs/common';
import { Database, type Tx } from '../database/database';
import type { UserEntity } from './user.entity';

/** A profile row, its columns named as the entity's fields. */
const USER_COLUMNS = `id, email, email_verified_at AS "emailVerifiedAt", pending_email AS "pendingEmail",
  password_hash AS "passwordHash", password_unproven AS "passwordUnproven", google_sub AS "googleSub",
  first_name AS "firstName", last_name AS "lastName", bio, avatar_file_id AS "avatarFileId",
  is_superadmin AS "isSuperadmin", disabled_at AS "disabledAt", last_login AS "lastLogin",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The fields `update` may set, and their columns. */
const CHANGE_COLUMNS = {
  email: 'email',
  emailVerifiedAt: 'email_verified_at',
  pendingEmail: 'pending_email',
  passwordHash: 'password_hash',
  passwordUnproven: 'password_unproven',
  googleSub: 'google_sub',
  firstName: 'first_name',
  lastName: 'last_name',
  bio: 'bio',
  avatarFileId: 'avatar_file_id',
  isSuperadmin: 'is_superadmin',
  lastLogin: 'last_login',
} as const satisfies Partial<Record<keyof UserEntity, string>>;

export type ProfileChanges = Partial<Pick<UserEntity, keyof typeof CHANGE_COLUMNS>>;

export type NewProfile = Pick<
  UserEntity,
  | 'email'
  | 'passwordHash'
  | 'emailVerifiedAt'
  | 'firstName'
  | 'lastName'
  | 'googleSub'
  | 'passwordUnproven'
  | 'isSuperadmin'
>;

/** Arbitrary, fixed: the advisory lock that makes "the first account" exact. */
const FIRST_ACCOUNT_LOCK = 7239115;

/** The SQL of profiles (the accounts' rows). */
@Injectable()
export class ProfilesRepository {
  constructor(private readonly db: Database) {}

  private async findWhere(where: string, params: unknown[], tx?: Tx): Promise<UserEntity | null> {
    const rows: UserEntity[] = await this.db.query(
      `SELECT ${USER_COLUMNS} FROM profiles WHERE ${where}`,
      params,
      tx,
    );
    return rows[0] ?? null;
  }

  findById(id: string, tx?: Tx): Promise<UserEntity | null> {
    return this.findWhere('id = $1', [id], tx);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.findWhere('email = $1', [email]);
  }

  findByGoogleSub(sub: string): Promise<UserEntity | null> {
    return this.findWhere('google_sub = $1', [sub]);
  }

  /** The row, locked for the rest of `tx`. */
  lock(tx: Tx, id: string): Promise<UserEntity | null> {
    return this.findWhere('id = $1 FOR UPDATE', [id], tx);
  }

  /** Serialises account creation until `tx` ends. */
  async lockAccountCreation(tx: Tx): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock($1)', [FIRST_ACCOUNT_LOCK], tx);
  }

  /** Whether an account (other than `exceptId`) has this address. */
  async emailTaken(email: string, tx: Tx, exceptId?: string): Promise<boolean> {
    const rows = await this.db.query(
      'SELECT 1 FROM profiles WHERE email = $1 AND ($2::uuid IS NULL OR id <> $2::uuid)',
      [email, exceptId ?? null],
      tx,
    );
    return rows.length > 0;
  }

  async anyExists(tx: Tx): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM profiles LIMIT 1', [], tx)).length > 0;
  }

  async insert(tx: Tx, values: NewProfile): Promise<UserEntity> {
    const rows: UserEntity[] = await this.db.query(
      `INSERT INTO profiles (email, password_hash, email_verified_at, first_name, last_name, google_sub,
         password_unproven, is_superadmin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${USER_COLUMNS}`,
      [
        values.email,
        values.passwordHash,
        values.emailVerifiedAt,
        values.firstName,
        values.lastName,
        values.googleSub,
        values.passwordUnproven,
        values.isSuperadmin,
      ],
      tx,
    );
    return rows[0];
  }

  /** Sets the fields given (a field left out keeps its value). */
  async update(id: string, changes: ProfileChanges, tx?: Tx): Promise<void> {
    const params: unknown[] = [id];
    const sets = ['updated_at = now()'];
    for (const [field, column] of Object.entries(CHANGE_COLUMNS)) {
      const value = changes[field as keyof ProfileChanges];
      if (value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    if (params.length === 1) return;
    await this.db.query(`UPDATE profiles SET ${sets.join(', ')} WHERE id = $1`, params, tx);
  }

  /** Makes the account with this address a superadmin; false when there is none. */
  async promote(email: string): Promise<boolean> {
    const changed = await this.db.execute(
      'UPDATE profiles SET is_superadmin = true, updated_at = now() WHERE email = $1',
      [email],
    );
    return changed > 0;
  }

  /** Marks the address verified while it is still the account's and its password is proven. */
  async markEmailVerified(id: string, email: string, tx?: Tx): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE profiles SET email_verified_at = now(), updated_at = now()
       WHERE id = $1 AND email = $2 AND email_verified_at IS NULL AND NOT password_unproven`,
      [id, email],
      tx,
    );
    return changed > 0;
  }

  async markPasswordProven(id: string, tx: Tx): Promise<void> {
    await this.db.query(
      'UPDATE profiles SET password_unproven = false, updated_at = now() WHERE id = $1 AND password_unproven',
      [id],
      tx,
    );
  }
}
