import { Injectable } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import type { CompanyScope } from '../common/company-scope';
import { NotFoundError } from '../common/domain-errors';
import type { CompanyAgentView, CompanyDetails } from '../contracts/company-admin';
import { CompanyQuotasService } from '../quotas/company-quotas.service';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { CompanySettingsRepository } from './company-settings.repository';
import { MembersService } from './members.service';
import { requireManager } from './require-manager';

/** Company Settings, Company Details and Company Agents: owners and admins of the company only. */
@Injectable()
export class CompanyAdminService {
  constructor(
    private readonly companies: CompanySettingsRepository,
    private readonly members: MembersService,
    private readonly agents: AgentsService,
    private readonly realtime: RealtimePublisher,
    private readonly quotas: CompanyQuotasService,
  ) {}

  async details(scope: CompanyScope): Promise<CompanyDetails> {
    requireManager(scope);
    const company = await this.companies.find(scope.companyId);
    if (!company) throw new NotFoundError('Company not found');
    const [memberCount, agentCount, quotas] = await Promise.all([
      this.members.count(scope.companyId),
      this.agents.countForCompany(scope.companyId),
      this.quotas.usage(scope.companyId, scope.userId),
    ]);
    return { ...company, memberCount, agentCount, quotas };
  }

  /** Renames the company; every member's open screens follow (company room). */
  async rename(scope: CompanyScope, name: string): Promise<CompanyDetails> {
    requireManager(scope);
    const trimmed = name.trim();
    await this.companies.rename(scope.companyId, trimmed);
    this.realtime.toCompany(scope.companyId, 'company.updated', {
      companyId: scope.companyId,
      name: trimmed,
    });
    return this.details(scope);
  }

  listAgents(scope: CompanyScope): Promise<CompanyAgentView[]> {
    requireManager(scope);
    return this.agents.listForCompany(scope.companyId);
  }

  createAgent(scope: CompanyScope, input: { name: string; description: string }): Promise<CompanyAgentView> {
    requireManager(scope);
    return this.agents.createForCompany(scope, input);
  }

  setAgentActive(scope: CompanyScope, agentId: string, isActive: boolean): Promise<CompanyAgentView> {
    requireManager(scope);
    return this.agents.setActiveInCompany(scope.companyId, agentId, isActive);
  }
}
