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

/**
 * An account's identity at a company's OpenID provider: `issuer` + `subject` (the provider's `iss` and
 * `sub`) name it; the email is what the provider said when it was linked. One identity per account and
 * issuer: a different `sub` for the same account is refused, not added.
 */
@Entity({ name: 'external_identities' })
@Index('UQ_external_identities_issuer_subject', ['issuer', 'subject'], { unique: true })
@Index('UQ_external_identities_user_issuer', ['userId', 'issuer'], { unique: true })
export class ExternalIdentityEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_external_identities' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_external_identities_user' })
  user?: UserEntity;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'FK_external_identities_company' })
  company?: CompanyEntity;

  @Column({ type: 'varchar', length: 2000 })
  issuer: string;

  @Column({ type: 'varchar', length: 255 })
  subject: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
