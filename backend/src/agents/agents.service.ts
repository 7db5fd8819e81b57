import { lookup } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { OwnerScope } from '../common/company-scope';
import { ForbiddenError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { isUuid } from '../common/uuid';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AttachmentsService } from '../files/attachments.service';
import { FilesService } from '../files/files.service';
import type { AgentView } from '../realtime/client-events';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { ADDRESS_REFUSED, checkWebhookUrl, hostKey, isPublicAddress } from '../webhooks/ssrf-guard';
import { generateSigningSecret } from '../webhooks/webhook-client';
import type { AgentEntity } from './agent.entity';
import type { CompanyAgentView } from '../contracts/company-admin';
import {
  type AgentChanges,
  AgentsRepository,
  DEFAULT_AGENT_ID,
  toAgentView,
  toCompanyAgentView,
} from './agents.repository';
import type { CreateAgentDto, UpdateAgentDto } from './dto/agent.dto';
import { Database } from '../database/database';

export { DEFAULT_AGENT_ID };
export const DEFAULT_AGENT_NAME = 'Assistant';
export const DEFAULT_AGENT_DESCRIPTION = 'Your helpful AI assistant';
export const AGENT_NOT_FOUND = 'Agent not found';
/** Minutes an agent that answered 202 Accepted has to call back, unless its owner chose otherwise. */
export const DEFAULT_CALLBACK_DEADLINE_MINUTES = 10;
export const DEFAULT_AGENT_NOT_EDITABLE =
  'The default agent cannot be edited. Create your own agent to choose its name, webhook and prompts.';
/** The spec's four built-in prompts: someone to talk to, a challenge, a goal, a happy moment. */
export const CANNED_QUESTIONS = [
  'I need someone to talk to',
  "I'm facing a challenge and could use some advice",
  'Help me set a goal and plan how to reach it',
  'I want to share a happy moment from my day',
];

type AgentWithSecret = AgentView & { signingSecret?: string };

/** Agents belong to one user in one company; every read and write is scoped by both. */
@Injectable()
export class AgentsService {
  private readonly allowedHosts: ReadonlySet<string>;
  /** Agents made from Company Admin answer through this (null: the built-in demo agent). */
  private readonly companyAgentWebhook: string | null;

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly agents: AgentsRepository,
    private readonly files: FilesService,
    private readonly attachments: AttachmentsService,
    private readonly realtime: RealtimePublisher,
    private readonly audit: AuditService,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
    this.companyAgentWebhook = config.defaultAgentWebhook ?? null;
  }

  /** Every user has a default agent in every company, made on first use. */
  async ensureDefault(scope: OwnerScope): Promise<AgentEntity> {
    const existing = await this.agents.findDefault(scope);
    if (existing) return existing;
    return this.agents.insertDefault(scope, {
      name: DEFAULT_AGENT_NAME,
      description: DEFAULT_AGENT_DESCRIPTION,
      webhook: null,
      defaultQuestions: [...CANNED_QUESTIONS],
      elevenlabsAgentId: null,
      signingSecret: null,
      callbackDeadlineMinutes: DEFAULT_CALLBACK_DEADLINE_MINUTES,
      sendFeedback: false,
      isDefault: true,
      isEditable: false,
      isActive: true,
    });
  }

  async list(scope: OwnerScope): Promise<AgentView[]> {
    await this.ensureDefault(scope);
    return (await this.agents.list(scope)).map(toAgentView);
  }

  /**
   * Finds an agent of this user in this company by its public id ('default-agent' or a uuid). Route
   * params are checked at the edge; ids from a request body (a new chat's agent) arrive here unchecked.
   */
  async resolve(scope: OwnerScope, agentId: string): Promise<AgentEntity> {
    if (agentId === DEFAULT_AGENT_ID) return this.ensureDefault(scope);
    const agent = isUuid(agentId) ? await this.agents.find(scope, agentId) : null;
    if (!agent) throw new NotFoundError(AGENT_NOT_FOUND);
    return agent;
  }

  /** The agent behind a chat, for the reply job (which has ids, not a request). */
  findForChat(scope: OwnerScope, agentId: string): Promise<AgentEntity | null> {
    return this.agents.find(scope, agentId);
  }

  async create(scope: OwnerScope, input: CreateAgentDto): Promise<AgentWithSecret> {
    await this.assertCallable(input.webhook);
    const signingSecret = input.signed ? generateSigningSecret() : null;
    const agent = await this.agents.insert(scope, {
      name: input.name,
      description: input.description || 'Custom agent',
      webhook: input.webhook,
      defaultQuestions: input.defaultQuestions ?? [...CANNED_QUESTIONS],
      elevenlabsAgentId: input.elevenlabsAgentId || null,
      signingSecret,
      callbackDeadlineMinutes: input.callbackDeadlineMinutes ?? DEFAULT_CALLBACK_DEADLINE_MINUTES,
      sendFeedback: input.sendFeedback ?? false,
      sendFilesInline: input.sendFilesInline ?? false,
      isDefault: false,
      isEditable: true,
      isActive: true,
    });
    const view = toAgentView(agent);
    this.realtime.toUser(scope.userId, 'agent.created', { companyId: scope.companyId, agent: view });
    return signingSecret ? { ...view, signingSecret } : view;
  }

  async update(scope: OwnerScope, agentId: string, input: UpdateAgentDto): Promise<AgentWithSecret> {
    const agent = await this.resolveEditable(scope, agentId);
    const changes: AgentChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description || 'Custom agent';
    if (input.defaultQuestions !== undefined) changes.defaultQuestions = input.defaultQuestions;
    if (input.elevenlabsAgentId !== undefined) changes.elevenlabsAgentId = input.elevenlabsAgentId || null;
    if (input.isActive !== undefined) changes.isActive = input.isActive;
    if (input.callbackDeadlineMinutes !== undefined)
      changes.callbackDeadlineMinutes = input.callbackDeadlineMinutes;
    if (input.sendFeedback !== undefined) changes.sendFeedback = input.sendFeedback;
    if (input.sendFilesInline !== undefined) changes.sendFilesInline = input.sendFilesInline;
    if (input.webhook !== undefined) {
      await this.assertCallable(input.webhook);
      changes.webhook = input.webhook;
    }
    let signingSecret: string | undefined;
    if (input.signed === true) signingSecret = changes.signingSecret = generateSigningSecret();
    if (input.signed === false) changes.signingSecret = null;
    await this.agents.update(scope, agent.id, changes);
    const view = toAgentView(await this.agents.findOrFail(scope, agent.id));
    this.realtime.toUser(scope.userId, 'agent.updated', { companyId: scope.companyId, agent: view });
    return signingSecret ? { ...view, signingSecret } : view;
  }

  /**
   * Deletes the agent with its chats, their messages and files (the rows cascade; bytes kept outside
   * PostgreSQL are deleted after the commit), audited with how many chats, files and bytes went.
   * `ip`: the caller's address, for the audit log.
   */
  async remove(scope: OwnerScope, agentId: string, ip?: string): Promise<void> {
    const agent = await this.resolve(scope, agentId);
    if (agent.isDefault) throw new ValidationFailedError('The default agent cannot be deleted');
    const removed = await this.database.transaction(async (tx) => {
      const files = await this.attachments.removalSummary(tx, { agentId: agent.id });
      const chats = await this.agents.remove(tx, scope, agent.id);
      if (agent.avatarFileId) await this.files.remove(agent.avatarFileId, tx);
      await this.audit.record(tx, {
        action: 'agent.deleted',
        actor: { id: scope.userId },
        target: { type: 'agent', id: agent.id, label: agent.name },
        company: { id: scope.companyId },
        ip,
        details: { chats, files: files.files, fileBytes: files.bytes },
      });
      return files;
    });
    await this.attachments.removeExternal(removed.externalIds);
    this.realtime.toUser(scope.userId, 'agent.deleted', { companyId: scope.companyId, agentId: agent.id });
  }

  async setAvatar(scope: OwnerScope, agentId: string, data: Buffer): Promise<AgentView> {
    const agent = await this.resolveEditable(scope, agentId);
    const encoded = await this.files.reencodeImage(data);
    await this.database.transaction(async (tx) => {
      const fileId = await this.files.storeEncoded(scope.userId, encoded, 'agent-avatar', tx);
      await this.agents.setAvatar(tx, scope, agent.id, fileId);
      if (agent.avatarFileId) await this.files.remove(agent.avatarFileId, tx);
    });
    const view = toAgentView(await this.agents.findOrFail(scope, agent.id));
    this.realtime.toUser(scope.userId, 'agent.updated', { companyId: scope.companyId, agent: view });
    return view;
  }

  // Company administration: the caller's right to manage the company is checked by the company-admin
  // service before these are called; they are scoped by company only.

  async listForCompany(companyId: string): Promise<CompanyAgentView[]> {
    return (await this.agents.listForCompany(companyId)).map(toCompanyAgentView);
  }

  countForCompany(companyId: string): Promise<number> {
    return this.agents.countForCompany(companyId);
  }

  /**
   * An agent made from Company Admin (name and description only): owned by the manager who made it, it
   * answers through the installation's default agent webhook (DEFAULT_AGENT_WEBHOOK, else the built-in
   * demo agent) until its owner sets a webhook of their own.
   */
  async createForCompany(
    scope: OwnerScope,
    input: { name: string; description: string },
  ): Promise<CompanyAgentView> {
    const agent = await this.agents.insert(scope, {
      name: input.name,
      description: input.description || 'Custom agent',
      webhook: this.companyAgentWebhook,
      defaultQuestions: [...CANNED_QUESTIONS],
      elevenlabsAgentId: null,
      signingSecret: null,
      callbackDeadlineMinutes: DEFAULT_CALLBACK_DEADLINE_MINUTES,
      sendFeedback: false,
      isDefault: false,
      isEditable: true,
      isActive: true,
    });
    this.realtime.toUser(scope.userId, 'agent.created', {
      companyId: scope.companyId,
      agent: toAgentView(agent),
    });
    const created = await this.agents.findInCompany(scope.companyId, agent.id);
    if (!created) throw new NotFoundError(AGENT_NOT_FOUND);
    return toCompanyAgentView(created);
  }

  /** Switches any agent of the company on or off; its owner's screens follow. */
  async setActiveInCompany(companyId: string, agentId: string, isActive: boolean): Promise<CompanyAgentView> {
    const agent = await this.agents.findInCompany(companyId, agentId);
    if (!agent) throw new NotFoundError(AGENT_NOT_FOUND);
    if (agent.isActive !== isActive) await this.agents.setActiveInCompany(companyId, agentId, isActive);
    const updated = { ...agent, isActive };
    this.realtime.toUser(agent.userId, 'agent.updated', { companyId, agent: toAgentView(updated) });
    return toCompanyAgentView(updated);
  }

  /** The default agent reports isEditable: false, and is: its name, prompts and webhook are the installation's. */
  private async resolveEditable(scope: OwnerScope, agentId: string): Promise<AgentEntity> {
    const agent = await this.resolve(scope, agentId);
    if (!agent.isEditable) throw new ForbiddenError(DEFAULT_AGENT_NOT_EDITABLE);
    return agent;
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
