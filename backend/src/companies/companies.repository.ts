import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { CompanyUserEntity, type CompanyRole } from './company-user.entity';
import { CompanyEntity } from './company.entity';
import type { CompanyMembershipDto } from './dto/company.dto';

/** A company as one of its members sees it: with their role. */
function toMembership(row: CompanyUserEntity): CompanyMembershipDto {
  const company = row.company as CompanyEntity;
  return { id: company.id, name: company.name, role: row.role, createdAt: company.createdAt.toISOString() };
}

/** Companies and memberships: every read goes through a membership of the user asking. */
@Injectable()
export class CompaniesRepository {
  constructor(
    @InjectRepository(CompanyUserEntity) private readonly memberships: Repository<CompanyUserEntity>,
  ) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.memberships.manager.transaction(work);
  }

  /** Inserts a company and its owner's membership, in the caller's transaction. */
  async insertWithOwner(tx: EntityManager, userId: string, name: string): Promise<CompanyMembershipDto> {
    const companies = tx.getRepository(CompanyEntity);
    const company = await companies.save(companies.create({ name, createdBy: userId, ownerId: userId }));
    const members = tx.getRepository(CompanyUserEntity);
    const membership = await members.save(members.create({ companyId: company.id, userId, role: 'owner' }));
    return toMembership(Object.assign(membership, { company }));
  }

  async listForUser(userId: string): Promise<CompanyMembershipDto[]> {
    const rows = await this.memberships
      .createQueryBuilder('cu')
      .innerJoinAndSelect('cu.company', 'c')
      .where('cu.user_id = :userId', { userId })
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .getMany();
    return rows.map(toMembership);
  }

  async findForUser(userId: string, companyId: string): Promise<CompanyMembershipDto | null> {
    const row = await this.memberships.findOne({
      where: { userId, companyId },
      relations: { company: true },
    });
    return row ? toMembership(row) : null;
  }

  async roleOf(userId: string, companyId: string): Promise<CompanyRole | null> {
    const row = await this.memberships.findOneBy({ userId, companyId });
    return row?.role ?? null;
  }
}
