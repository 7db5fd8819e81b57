import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  OneToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';

/** A company's OpenID Connect provider, as its owner set it in Company Admin → Settings → Single sign-on. */
@Entity({ name: 'company_sso' })
export class CompanySsoEntity {
  @PrimaryColumn({ name: 'company_id', type: 'uuid', primaryKeyConstraintName: 'PK_company_sso' })
  companyId: string;

  @OneToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'FK_company_sso_company' })
  company?: CompanyEntity;

  /** Sign-in through the provider is offered (off: a platform admin or the owner turned it off). */
  @Column({ type: 'boolean', default: false })
  enabled: boolean;

  @Column({ type: 'varchar', length: 2000 })
  issuer: string;

  @Column({ name: 'client_id', type: 'varchar', length: 500 })
  clientId: string;

  /** AES-256-GCM under a key derived from JWT_SECRET (client-secret-box.ts); never returned by any API. */
  @Column({ name: 'client_secret_sealed', type: 'varchar', length: 2000, nullable: true })
  clientSecretSealed: string | null;

  /** "Members must use SSO". */
  @Column({ name: 'require_sso', type: 'boolean', default: false })
  requireSso: boolean;

  /** "People from these domains join automatically as User". */
  @Column({ name: 'auto_join', type: 'boolean', default: false })
  autoJoin: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
