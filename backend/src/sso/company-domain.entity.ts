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

/**
 * An email domain a company claims for single sign-on. It counts once proved (`verified_at`): by a
 * mailed link to an address at the domain (only the link token's SHA-256 is kept, with its expiry; the
 * link works once). A proved domain belongs to one company only; unproved claims may overlap.
 */
@Entity({ name: 'company_domains' })
@Index('UQ_company_domains_company_domain', ['companyId', 'domain'], { unique: true })
@Index('UQ_company_domains_proved', ['domain'], { unique: true, where: '"verified_at" IS NOT NULL' })
export class CompanyDomainEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_company_domains' })
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'FK_company_domains_company' })
  company?: CompanyEntity;

  /** Lower case, IDN as punycode, no wildcard. */
  @Column({ type: 'varchar', length: 253 })
  domain: string;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  /** Where the outstanding proof link was mailed. */
  @Column({ name: 'proof_email', type: 'varchar', length: 320, nullable: true })
  proofEmail: string | null;

  @Index('UQ_company_domains_proof_token', { unique: true, where: '"proof_token_hash" IS NOT NULL' })
  @Column({ name: 'proof_token_hash', type: 'varchar', length: 64, nullable: true })
  proofTokenHash: string | null;

  @Column({ name: 'proof_expires_at', type: 'timestamptz', nullable: true })
  proofExpiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
