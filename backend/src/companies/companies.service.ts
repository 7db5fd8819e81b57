import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { NotFoundError } from '../common/domain-errors';
import { CompaniesRepository } from './companies.repository';
import type { CompanyRole } from './company-user.entity';
import type { CompanyMembershipDto } from './dto/company.dto';
import { Database, type Tx } from '../database/database';

export const COMPANY_NOT_FOUND = 'Company not found';

@Injectable()
export class CompaniesService {
  constructor(
    private readonly database: Database,
    private readonly companies: CompaniesRepository,
    private readonly audit: AuditService,
  ) {}

  /** A company someone signed in adds (POST /companies): made and audited in one transaction. */
  create(userId: string, name: string, ip?: string): Promise<CompanyMembershipDto> {
    return this.database.transaction(async (tx) => {
      const company = await this.companies.insertWithOwner(tx, userId, name.trim());
      await this.audit.record(tx, {
        action: 'company.created',
        actor: { id: userId },
        target: { type: 'company', id: company.id, label: company.name },
        company: { id: company.id, name: company.name },
        ip,
      });
      return company;
    });
  }

  /** Creates a company with its creator as owner; joins the caller's transaction when given one. */
  createWithOwner(userId: string, name: string, tx?: Tx): Promise<CompanyMembershipDto> {
    const work = (inTx: Tx) => this.companies.insertWithOwner(inTx, userId, name.trim());
    return tx ? work(tx) : this.database.transaction(work);
  }

  /** `sessionId`: mark the companies that refuse this session their data (`ssoRequired`). */
  listForUser(userId: string, sessionId?: string): Promise<CompanyMembershipDto[]> {
    return this.companies.listForUser(userId, sessionId);
  }

  /** The company as the user sees it; a company they are not in does not exist for them. */
  async getForUser(userId: string, companyId: string): Promise<CompanyMembershipDto> {
    const membership = await this.companies.findForUser(userId, companyId);
    if (!membership) throw new NotFoundError(COMPANY_NOT_FOUND);
    return membership;
  }

  /** The caller's role in a company (a uuid checked by the caller), or null when not a member. */
  roleOf(userId: string, companyId: string): Promise<CompanyRole | null> {
    return this.companies.roleOf(userId, companyId);
  }
}
