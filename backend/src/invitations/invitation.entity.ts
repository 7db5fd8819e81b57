import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';
import { UserEntity } from '../profiles/user.entity';
import type { InvitationRole, InvitationStatus } from '../contracts/invitations';

export const INVITATION_ROLES: readonly InvitationRole[] = ['admin', 'user'];

/**
 * An invitation to join a company (the spec's company_invitations). The emailed token is never stored:
 * only its SHA-256 (for lookup) and an AES-256-GCM copy under a key derived from JWT_SECRET, so that a
 * manager can copy the link again while it is pending; the copy is dropped once it is no longer pending.
 */
@Entity({ name: 'company_invitations' })
@Index('IDX_company_invitations_company', ['companyId', 'createdAt'])
// One pending invitation per address and company: a second invite is a clear 409, also under a race.
@Index('UQ_company_invitations_pending', ['companyId', 'email'], {
  unique: true,
  where: "status = 'pending'",
})
export class InvitationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  /** Lower-cased, as accounts store it. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  role: InvitationRole;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: InvitationStatus;

  @Index('UQ_company_invitations_token', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** iv.ciphertext.tag (base64url) of the token; null once the invitation is no longer pending. */
  @Column({ name: 'token_sealed', type: 'varchar', length: 200, nullable: true })
  tokenSealed: string | null;

  /**
   * SHA-256 of the second token, the one only the invitation's mail carries: following the mailed link
   * proves the invitee read mail sent to the address; the manager's copy of the link does not. Null for
   * invitations made before it existed (their links prove nothing).
   */
  @Index('UQ_company_invitations_mail_token', { unique: true, where: 'mail_token_hash IS NOT NULL' })
  @Column({ name: 'mail_token_hash', type: 'varchar', length: 64, nullable: true })
  mailTokenHash: string | null;

  @Column({ name: 'invited_by', type: 'uuid', nullable: true })
  invitedBy: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by' })
  inviter?: UserEntity | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
