import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { CompanyUserEntity } from '../companies/company-user.entity';
import { CompanyEntity } from '../companies/company.entity';
import type { PersonRef } from '../contracts/invitations';
import { personName } from './require-manager';

export interface CompanyRecord {
  id: string;
  name: string;
  createdAt: string;
  owner: PersonRef | null;
}

/** The company row itself (name, owner) as Company Settings and Company Details read and change it. */
@Injectable()
export class CompanySettingsRepository {
  constructor(@InjectRepository(CompanyEntity) private readonly companies: Repository<CompanyEntity>) {}

  /**
   * The owner shown is the company's recorded owner while they still are one, else its longest-standing
   * owner (owners can hand the company on, and a company may have several).
   */
  async find(companyId: string): Promise<CompanyRecord | null> {
    const company = await this.companies.findOneBy({ id: companyId });
    if (!company) return null;
    const owner = await this.companies.manager
      .getRepository(CompanyUserEntity)
      .createQueryBuilder('cu')
      .innerJoinAndSelect('cu.user', 'u')
      .where('cu.company_id = :companyId AND cu.role = :role', { companyId, role: 'owner' })
      .orderBy('CASE WHEN cu.user_id = :ownerId THEN 0 ELSE 1 END', 'ASC')
      .addOrderBy('cu.created_at', 'ASC')
      .setParameter('ownerId', company.ownerId)
      .getOne();
    return {
      id: company.id,
      name: company.name,
      createdAt: company.createdAt.toISOString(),
      owner: owner?.user ? { id: owner.user.id, name: personName(owner.user) } : null,
    };
  }

  async rename(companyId: string, name: string): Promise<void> {
    await this.companies.update({ id: companyId }, { name });
  }
}
