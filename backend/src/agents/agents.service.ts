import { lookup } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { FilesService, fileUrl, isUuid } from '../files/files.service';
import type { AgentView } from '../realtime/client-events';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { ADDRESS_REFUSED, checkWebhookUrl, hostKey, isPublicAddress } from '../webhooks/ssrf-guard';
import { generateSigningSecret } from '../webhooks/webhook-client';
import { AgentEntity } from './agent.entity';
import type { CreateAgentDto, UpdateAgentDto } from './dto/agent.dto';

export const DEFAULT_AGENT_ID = 'default-agent';
export const DEFAULT_AGENT_NAME = 'Assistant';
export const DEFAULT_AGENT_DESCRIPTION = 'Your helpful AI assistant';
export const AGENT_NOT_FOUND = 'Agent not found';
/** The spec's four built-in prompts: someone to talk to, a challenge, a goal, a happy moment. */
export const CANNED_QUESTIONS = [
  'I need someone to talk to',
  "I'm facing a challenge and could use some advice",
  'Help me set a goal and plan how to reach it',
  'I want to share a happy moment from my day',
];

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
    isDefault: agent.isDefault,
    isEditable: agent.isEditable,
    isActive: agent.isActive,
    createdAt: agent.createdAt.toISOString(),
  };
}

/** Agents belong to one user in one company; every read and write is scoped by both. */
@Injectable()
export class AgentsService {
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectRepository(AgentEntity) private readonly agents: Repository<AgentEntity>,
    private readonly dataSource: DataSource,
    private readonly files: FilesService,
    private readonly realtime: RealtimePublisher,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
  }

  /** Every user has a default agent in every company, made on first use. */
  async ensureDefault(userId: string, companyId: string): Promise<AgentEntity> {
    const existing = await this.agents.findOneBy({ userId, companyId, isDefault: true });
    if (existing) return existing;
    await this.agents
      .createQueryBuilder()
      .insert()
      .values({
        userId,
        companyId,
        name: DEFAULT_AGENT_NAME,
        description: DEFAULT_AGENT_DESCRIPTION,
        webhook: null,
        defaultQuestions: [...CANNED_QUESTIONS],
        isDefault: true,
        isEditable: false,
      })
      .orIgnore()
      .execute();
    return this.agents.findOneByOrFail({ userId, companyId, isDefault: true });
  }

  async list(userId: string, companyId: string): Promise<AgentView[]> {
    await this.ensureDefault(userId, companyId);
    const rows = await this.agents.find({
      where: { userId, companyId },
      order: { isDefault: 'DESC', createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toAgentView);
  }

  /** Finds an agent of this user in this company by its public id ('default-agent' or a uuid). */
  async resolve(userId: string, companyId: string, agentId: string): Promise<AgentEntity> {
    if (agentId === DEFAULT_AGENT_ID) return this.ensureDefault(userId, companyId);
    if (!isUuid(agentId)) throw new NotFoundError(AGENT_NOT_FOUND);
    const agent = await this.agents.findOneBy({ id: agentId, userId, companyId });
    if (!agent) throw new NotFoundError(AGENT_NOT_FOUND);
    return agent;
  }

  /** The agent behind a chat, for the reply job (which has ids, not a request). */
  findForChat(agentId: string, userId: string, companyId: string): Promise<AgentEntity | null> {
    return this.agents.findOneBy({ id: agentId, userId, companyId });
  }

  async create(
    userId: string,
    companyId: string,
    input: CreateAgentDto,
  ): Promise<AgentView & { signingSecret?: string }> {
    await this.assertCallable(input.webhook);
    const signingSecret = input.signed ? generateSigningSecret() : null;
    const agent = await this.agents.save(
      this.agents.create({
        userId,
        companyId,
        name: input.name,
        description: input.description || 'Custom agent',
        webhook: input.webhook,
        defaultQuestions: input.defaultQuestions ?? [...CANNED_QUESTIONS],
        elevenlabsAgentId: input.elevenlabsAgentId || null,
        signingSecret,
        isDefault: false,
        isEditable: true,
      }),
    );
    const view = toAgentView(agent);
    this.realtime.toUser(userId, 'agent.created', { companyId, agent: view });
    return signingSecret ? { ...view, signingSecret } : view;
  }

  async update(
    userId: string,
    companyId: string,
    agentId: string,
    input: UpdateAgentDto,
  ): Promise<AgentView & { signingSecret?: string }> {
    const agent = await this.resolve(userId, companyId, agentId);
    const changes: Partial<AgentEntity> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description || 'Custom agent';
    if (input.defaultQuestions !== undefined) changes.defaultQuestions = input.defaultQuestions;
    if (input.elevenlabsAgentId !== undefined) changes.elevenlabsAgentId = input.elevenlabsAgentId || null;
    if (input.isActive !== undefined) changes.isActive = input.isActive;
    let signingSecret: string | undefined;
    if (input.webhook !== undefined || input.signed !== undefined) {
      if (agent.isDefault)
        throw new ValidationFailedError("The default agent's webhook is set by the installation");
      if (input.webhook !== undefined) {
        await this.assertCallable(input.webhook);
        changes.webhook = input.webhook;
      }
      if (input.signed === true) signingSecret = changes.signingSecret = generateSigningSecret();
      if (input.signed === false) changes.signingSecret = null;
    }
    if (Object.keys(changes).length) await this.agents.update({ id: agent.id, userId, companyId }, changes);
    const view = toAgentView(await this.agents.findOneByOrFail({ id: agent.id }));
    this.realtime.toUser(userId, 'agent.updated', { companyId, agent: view });
    return signingSecret ? { ...view, signingSecret } : view;
  }

  async remove(userId: string, companyId: string, agentId: string): Promise<void> {
    const agent = await this.resolve(userId, companyId, agentId);
    if (agent.isDefault) throw new ValidationFailedError('The default agent cannot be deleted');
    await this.dataSource.transaction(async (manager) => {
      // Its chats and their messages go with it (foreign keys cascade).
      await manager.getRepository(AgentEntity).delete({ id: agent.id, userId, companyId });
      if (agent.avatarFileId) await this.files.remove(agent.avatarFileId, manager);
    });
    this.realtime.toUser(userId, 'agent.deleted', { companyId, agentId: agent.id });
  }

  async setAvatar(userId: string, companyId: string, agentId: string, data: Buffer): Promise<AgentView> {
    const agent = await this.resolve(userId, companyId, agentId);
    const encoded = await this.files.reencodeImage(data);
    await this.dataSource.transaction(async (manager) => {
      const fileId = await this.files.storeEncoded(userId, encoded, 'agent-avatar', manager);
      await manager
        .getRepository(AgentEntity)
        .update({ id: agent.id, userId, companyId }, { avatarFileId: fileId });
      if (agent.avatarFileId) await this.files.remove(agent.avatarFileId, manager);
    });
    const view = toAgentView(await this.agents.findOneByOrFail({ id: agent.id }));
    this.realtime.toUser(userId, 'agent.updated', { companyId, agent: view });
    return view;
  }

  /** Refuses, on save, an address the SSRF guard would refuse on call, with a clear message. */
  private async assertCallable(webhook: string): Promise<void> {
    const problem = checkWebhookUrl(webhook, this.allowedHosts);
    if (problem) throw new ValidationFailedError(problem);
    const url = new URL(webhook);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (this.allowedHosts.has(hostKey(url.hostname, port))) return;
    try {
      const addresses = await lookup(url.hostname, { all: true });
      if (addresses.some((a) => !isPublicAddress(a.address)))
        throw new ValidationFailedError(ADDRESS_REFUSED);
    } catch (error) {
      if (error instanceof ValidationFailedError) throw error;
      // A name that does not resolve now may resolve later; the guard checks again at call time.
    }
  }
}
