import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { OwnerScope } from '../common/company-scope';
import { fileUrl } from '../files/files.service';
import type { CompanyAgentView } from '../contracts/company-admin';
import type { AgentView } from '../realtime/client-events';
import { AgentEntity } from './agent.entity';

export const DEFAULT_AGENT_ID = 'default-agent';

export function toAgentView(agent: AgentEntity): AgentView {
  return {
    id: agent.isDefault ? DEFAULT_AGENT_ID : agent.id,
    companyId: agent.companyId,
    name: agent.name,
    description: agent.description,
    avatar: fileUrl(agent.avatarFileId),
    webhook: agent.isDefault ? null : agent.webhook,
    defaultQuestions: agent.defaultQuestions,
    elevenlabsAgentId: agent.elevenlabsAgentId,
    hasSigningSecret: !!agent.signingSecret,
    callbackDeadlineMinutes: agent.callbackDeadlineMinutes,
    isDefault: agent.isDefault,
    isEditable: agent.isEditable,
    isActive: agent.isActive,
    createdAt: agent.createdAt.toISOString(),
  };
}

/** A row of the Company Agents table (owner joined); webhooks and secrets stay with the owner's view. */
export function toCompanyAgentView(agent: AgentEntity): CompanyAgentView {
  const owner = agent.user;
  return {
    id: agent.id,
    companyId: agent.companyId,
    name: agent.name,
    description: agent.description,
    avatar: fileUrl(agent.avatarFileId),
    isActive: agent.isActive,
    isDefault: agent.isDefault,
    owner: owner
      ? { id: owner.id, name: [owner.firstName, owner.lastName].filter(Boolean).join(' ') || 'Unnamed User' }
      : null,
    createdAt: agent.createdAt.toISOString(),
  };
}

export type AgentChanges = Partial<
  Pick<
    AgentEntity,
    | 'name'
    | 'description'
    | 'webhook'
    | 'defaultQuestions'
    | 'elevenlabsAgentId'
    | 'signingSecret'
    | 'callbackDeadlineMinutes'
    | 'isActive'
  >
>;
export type NewAgent = Omit<
  AgentEntity,
  'id' | 'userId' | 'companyId' | 'createdAt' | 'updatedAt' | 'avatarFileId'
>;

/** Agents' rows: each belongs to one user in one company, and every statement is scoped by both. */
@Injectable()
export class AgentsRepository {
  constructor(@InjectRepository(AgentEntity) private readonly agents: Repository<AgentEntity>) {}

  findDefault(scope: OwnerScope): Promise<AgentEntity | null> {
    return this.agents.findOneBy({ userId: scope.userId, companyId: scope.companyId, isDefault: true });
  }

  /** Inserts the default agent unless it exists (two first requests may race), then reads it. */
  async insertDefault(scope: OwnerScope, values: NewAgent): Promise<AgentEntity> {
    const owner = { userId: scope.userId, companyId: scope.companyId };
    await this.agents
      .createQueryBuilder()
      .insert()
      .values({ ...values, ...owner })
      .orIgnore()
      .execute();
    return this.agents.findOneByOrFail({ ...owner, isDefault: true });
  }

  /** The default agent first, then the others oldest first. */
  list(scope: OwnerScope): Promise<AgentEntity[]> {
    return this.agents.find({
      where: { userId: scope.userId, companyId: scope.companyId },
      order: { isDefault: 'DESC', createdAt: 'ASC', id: 'ASC' },
    });
  }

  find(scope: OwnerScope, agentId: string): Promise<AgentEntity | null> {
    return this.agents.findOneBy({ id: agentId, userId: scope.userId, companyId: scope.companyId });
  }

  async findOrFail(scope: OwnerScope, agentId: string): Promise<AgentEntity> {
    return this.agents.findOneByOrFail({ id: agentId, userId: scope.userId, companyId: scope.companyId });
  }

  insert(scope: OwnerScope, values: NewAgent): Promise<AgentEntity> {
    return this.agents.save(
      this.agents.create({ ...values, userId: scope.userId, companyId: scope.companyId }),
    );
  }

  async update(scope: OwnerScope, agentId: string, changes: AgentChanges): Promise<void> {
    if (!Object.keys(changes).length) return;
    await this.agents.update({ id: agentId, userId: scope.userId, companyId: scope.companyId }, changes);
  }

  async setAvatar(tx: EntityManager, scope: OwnerScope, agentId: string, fileId: string): Promise<void> {
    await tx
      .getRepository(AgentEntity)
      .update({ id: agentId, userId: scope.userId, companyId: scope.companyId }, { avatarFileId: fileId });
  }

  /** Every agent of a company, whoever owns it, newest first (company administration). */
  listForCompany(companyId: string): Promise<AgentEntity[]> {
    return this.agents.find({
      where: { companyId },
      relations: { user: true },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  findInCompany(companyId: string, agentId: string): Promise<AgentEntity | null> {
    return this.agents.findOne({ where: { id: agentId, companyId }, relations: { user: true } });
  }

  async setActiveInCompany(companyId: string, agentId: string, isActive: boolean): Promise<void> {
    await this.agents.update({ id: agentId, companyId }, { isActive });
  }

  countForCompany(companyId: string): Promise<number> {
    return this.agents.countBy({ companyId });
  }

  /** Its chats and their messages go with it (foreign keys cascade). */
  async remove(tx: EntityManager, scope: OwnerScope, agentId: string): Promise<void> {
    await tx
      .getRepository(AgentEntity)
      .delete({ id: agentId, userId: scope.userId, companyId: scope.companyId });
  }
}
