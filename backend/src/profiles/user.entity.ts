import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A person's account and profile (the spec's `profiles`), one row per user. */
@Entity({ name: 'profiles' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased; unique. */
  @Index('UQ_profiles_email', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** When the owner of the address proved it (a link followed, Google, an accepted invitation). */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  /** An address the user asked to change to; it becomes `email` when the emailed link is followed. */
  @Column({ name: 'pending_email', type: 'varchar', length: 320, nullable: true })
  pendingEmail: string | null;

  @Column({ name: 'password_hash', type: 'varchar', nullable: true })
  passwordHash: string | null;

  /**
   * The password was chosen by someone who had not proved the address (a sign-up through a manager's
   * copy of an invitation link). Until the address's owner chooses one through a mailed link, the
   * address can only be proved that way, never by a link that would keep this password.
   */
  @Column({ name: 'password_unproven', type: 'boolean', default: false })
  passwordUnproven: boolean;

  @Index('UQ_profiles_google_sub', { unique: true, where: 'google_sub IS NOT NULL' })
  @Column({ name: 'google_sub', type: 'varchar', length: 255, nullable: true })
  googleSub: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 100, default: '' })
  firstName: string;

  @Column({ name: 'last_name', type: 'varchar', length: 200, default: '' })
  lastName: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  bio: string;

  @Column({ name: 'avatar_file_id', type: 'uuid', nullable: true })
  avatarFileId: string | null;

  @Column({ name: 'is_superadmin', type: 'boolean', default: false })
  isSuperadmin: boolean;

  /** A superadmin disabled the account: it cannot sign in, and its sessions ended when this was set. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'last_login', type: 'timestamptz', nullable: true })
  lastLogin: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
