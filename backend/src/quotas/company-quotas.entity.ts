import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';

/**
 * A company's quotas, set by a platform admin: one row per company that has any (no row: no limits).
 * Each quota is a column; null means no limit.
 */
@Entity({ name: 'company_quotas' })
@Check(
  'CHK_company_quotas_messages_positive',
  '"messages_per_user_per_day" >= 1 AND "messages_per_company_per_month" >= 1',
)
export class CompanyQuotasEntity {
  @PrimaryColumn({ name: 'company_id', type: 'uuid', primaryKeyConstraintName: 'PK_company_quotas' })
  companyId: string;

  @OneToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'FK_company_quotas_company' })
  company?: CompanyEntity;

  /** The bytes the company's attached files may take in all (the store's, PostgreSQL or S3). */
  @Column({ name: 'stored_bytes_limit', type: 'bigint', nullable: true })
  storedBytesLimit: string | null;

  /** The user messages each member may send per UTC day. */
  @Column({ name: 'messages_per_user_per_day', type: 'integer', nullable: true })
  messagesPerUserPerDay: number | null;

  /** The user messages the company's members may send in all per calendar month (UTC). */
  @Column({ name: 'messages_per_company_per_month', type: 'integer', nullable: true })
  messagesPerCompanyPerMonth: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
