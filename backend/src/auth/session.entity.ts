import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../profiles/user.entity';

/**
 * One signed-in device: a chain of rotating refresh tokens. Only the hash of the current token (and,
 * for a short grace period, the previous one) is kept; presenting any older token revokes the chain.
 */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('IDX_sessions_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'refresh_hash', type: 'varchar', length: 64 })
  refreshHash: string;

  @Column({ name: 'previous_hash', type: 'varchar', length: 64, nullable: true })
  previousHash: string | null;

  /** Hashes of this session's earlier secrets (newest last, bounded): replaying one is token theft. */
  @Column({ name: 'retired_hashes', type: 'varchar', length: 64, array: true, default: () => "'{}'" })
  retiredHashes: string[];

  @Column({ name: 'rotated_at', type: 'timestamptz' })
  rotatedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 500, nullable: true })
  userAgent: string | null;

  /** The company whose identity provider made this session (single sign-on), else null. */
  @Index('IDX_sessions_sso_company', { where: '"sso_company_id" IS NOT NULL' })
  @Column({ name: 'sso_company_id', type: 'uuid', nullable: true })
  ssoCompanyId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
