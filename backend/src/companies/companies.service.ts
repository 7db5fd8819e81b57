import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { NotFoundError } from '../common/domain-errors';
import { isUuid } from '../files/files.service';
import { CompanyUserEntity, type CompanyRole } from './company-user.entity';
import { CompanyEntity } from './company.entity';
import type { CompanyMembershipDto } from './dto/company.dto';

export const COMPANY_NOT_FOUND = 'Company not found';

@Injectable()
export class CompaniesService {
  constructor(
    @InjectRepository(CompanyUserEntity) private readonly memberships: Repository<CompanyUserEntity>,
    private readonly dataSource: DataSource,
  ) {}

  /** Creates a company with its creator as owner; joins the caller's transaction when given one. */
  async createWithOwner(
    userId: string,
    name: string,
    manager?: EntityManager,
  ): Promise<CompanyMembershipDto> {
    const work = async (m: EntityManager): Promise<CompanyMembershipDto> => {
      const company = await m
        .getRepository(CompanyEntity)
        .save(
          m.getRepository(CompanyEntity).create({ name: name.trim(), createdBy: userId, ownerId: userId }),
        );
      await m
        .getRepository(CompanyUserEntity)
        .save(m.getRepository(CompanyUserEntity).create({ companyId: company.id, userId, role: 'owner' }));
      return {
        id: company.id,
        name: company.name,
        role: 'owner',
        createdAt: company.createdAt.toISOString(),
      };
    };
    return manager ? work(manager) : this.dataSource.transaction(work);
  }

  async listForUser(userId: string): Promise<CompanyMembershipDto[]> {
    const rows = await this.memberships
      .createQueryBuilder('cu')
      .innerJoinAndSelect('cu.company', 'c')
      .where('cu.user_id = :userId', { userId })
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .getMany();
    return rows.map((row) => toMembership(row));
  }

  /** The company as the user sees it; a company they are not in does not exist for them. */
  async getForUser(userId: string, companyId: string): Promise<CompanyMembershipDto> {
    if (!isUuid(companyId)) throw new NotFoundError(COMPANY_NOT_FOUND);
    const row = await this.memberships.findOne({
      where: { userId, companyId },
      relations: { company: true },
    });
    if (!row) throw new NotFoundError(COMPANY_NOT_FOUND);
    return toMembership(row);
  }

  async roleOf(userId: string, companyId: string): Promise<CompanyRole | null> {
    if (!isUuid(companyId)) return null;
    const row = await this.memberships.findOneBy({ userId, companyId });
    return row?.role ?? null;
  }
}

function toMembership(row: CompanyUserEntity): CompanyMembershipDto {
  const company = row.company as CompanyEntity;
  return { id: company.id, name: company.name, role: row.role, createdAt: company.createdAt.toISOString() };
}
