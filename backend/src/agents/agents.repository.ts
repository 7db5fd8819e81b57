import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../common/company-scope';
import { Database, type Tx } from '../database/database';
import { fileUrl } from '../files/files.service';
import type { CompanyAgentView } from '../contracts/company-admin';
import type { AgentView } from '../realtime/client-events';
import type { AgentEntity } from './agent.entity';

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
    sendFeedback: agent.sendFeedback,
    sendFilesInline: agent.sendFilesInline,
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
    | 'sendFeedback'
    | 'sendFilesInline'
    | 'isActive'
  >
>;
export type NewAgent = Omit<
  AgentEntity,
  | 'id'
  | 'userId'
  | 'companyId'
  | 'createdAt'
  | 'updatedAt'
  | 'avatarFileId'
  | 'user'
  | 'company'
  | 'sendFilesInline'
> & { sendFilesInline?: boolean };

/** An agent row's columns (table `a`), named as the entity's fields. */
const AGENT_COLUMNS = `a.id, a.user_id AS "userId", a.company_id AS "companyId", a.name, a.description,
  a.avatar_file_id AS "avatarFileId", a.webhook, a.default_questions AS "defaultQuestions",
  a.elevenlabs_agent_id AS "elevenlabsAgentId", a.signing_secret AS "signingSecret",
  a.callback_deadline_minutes AS "callbackDeadlineMinutes", a.send_feedback AS "sendFeedback",
  a.send_files_inline AS "sendFilesInline", a.is_editable AS "isEditable",
  a.is_default AS "isDefault", a.is_active AS "isActive", a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

/** The fields of NewAgent and AgentChanges, and their columns. */
const COLUMNS = {
  name: 'name',
  description: 'description',
  webhook: 'webhook',
  defaultQuestions: 'default_questions',
  elevenlabsAgentId: 'elevenlabs_agent_id',
  signingSecret: 'signing_secret',
  callbackDeadlineMinutes: 'callback_deadline_minutes',
  sendFeedback: 'send_feedback',
  sendFilesInline: 'send_files_inline',
  isDefault: 'is_default',
  isEditable: 'is_editable',
  isActive: 'is_active',
} as const satisfies Record<keyof NewAgent, string>;

/** A value as its column takes it: jsonb gets JSON text (pg would send an array as a PostgreSQL array). */
function columnValue(field: keyof NewAgent, value: unknown): unknown {
  if (field === 'sendFilesInline') return value ?? false;
  return field === 'defaultQuestions' ? JSON.stringify(value) : value;
}

type AgentWithOwnerRow = AgentEntity & { ownerFirstName: string; ownerLastName: string };

/** An agent with its owner joined (the owner's name, for company administration). */
function withOwner(row: AgentWithOwnerRow): AgentEntity {
  const { ownerFirstName, ownerLastName, ...agent } = row;
  return {
    ...agent,
    user: { id: agent.userId, firstName: ownerFirstName, lastName: ownerLastName } as AgentEntity['user'],
  };
}

const WITH_OWNER_SQL = `SELECT ${AGENT_COLUMNS}, u.first_name AS "ownerFirstName", u.last_name AS "ownerLastName"
  FROM agents a JOIN profiles u ON u.id = a.user_id`;

/** Agents' rows: each belongs to one user in one company, and every statement is scoped by both. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly db: Database) {}

  private async one(where: string, params: unknown[]): Promise<AgentEntity | null> {
    const rows: AgentEntity[] = await this.db.query(
      `SELECT ${AGENT_COLUMNS} FROM agents a WHERE ${where}`,
      params,
    );
    return rows[0] ?? null;
  }

  findDefault(scope: OwnerScope): Promise<AgentEntity | null> {
    return this.one('a.user_id = $1 AND a.company_id = $2 AND a.is_default', [scope.userId, scope.companyId]);
  }

  /** Inserts the default agent unless it exists (two first requests may race), then reads it. */
  async insertDefault(scope: OwnerScope, values: NewAgent): Promise<AgentEntity> {
    await this.insertRow(scope, values, 'ON CONFLICT DO NOTHING');
    const agent = await this.findDefault(scope);
    if (!agent) throw new Error('the default agent was neither inserted nor found');
    return agent;
  }

  private async insertRow(scope: OwnerScope, values: NewAgent, onConflict = ''): Promise<AgentEntity[]> {
    const fields = Object.keys(COLUMNS) as Array<keyof NewAgent>;
    const params: unknown[] = [
      scope.userId,
      scope.companyId,
      ...fields.map((f) => columnValue(f, values[f])),
    ];
    return this.db.query(
      `INSERT INTO agents AS a (user_id, company_id, ${fields.map((f) => COLUMNS[f]).join(', ')})
       VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')}) ${onConflict} RETURNING ${AGENT_COLUMNS}`,
      params,
    );
  }

  /** The default agent first, then the others oldest first. */
  list(scope: OwnerScope): Promise<AgentEntity[]> {
    return this.db.query(
      `SELECT ${AGENT_COLUMNS} FROM agents a WHERE a.user_id = $1 AND a.company_id = $2
       ORDER BY a.is_default DESC, a.created_at, a.id`,
      [scope.userId, scope.companyId],
    );
  }

  find(scope: OwnerScope, agentId: string): Promise<AgentEntity | null> {
    return this.one('a.id = $1 AND a.user_id = $2 AND a.company_id = $3', [
      agentId,
      scope.userId,
      scope.companyId,
    ]);
  }

  async findOrFail(scope: OwnerScope, agentId: string): Promise<AgentEntity> {
    const agent = await this.find(scope, agentId);
    if (!agent) throw new Error(`agent ${agentId} not found for its owner`);
    return agent;
  }

  async insert(scope: OwnerScope, values: NewAgent): Promise<AgentEntity> {
    return (await this.insertRow(scope, values))[0];
  }

  async update(scope: OwnerScope, agentId: string, changes: AgentChanges): Promise<void> {
    const params: unknown[] = [agentId, scope.userId, scope.companyId];
    const sets = ['updated_at = now()'];
    for (const [field, value] of Object.entries(changes) as Array<[keyof AgentChanges, unknown]>) {
      if (value === undefined) continue;
      params.push(columnValue(field, value));
      sets.push(`${COLUMNS[field]} = $${params.length}`);
    }
    if (params.length === 3) return;
    await this.db.query(
      `UPDATE agents SET ${sets.join(', ')} WHERE id = $1 AND user_id = $2 AND company_id = $3`,
      params,
    );
  }

  async setAvatar(tx: Tx, scope: OwnerScope, agentId: string, fileId: string): Promise<void> {
    await this.db.query(
      `UPDATE agents SET avatar_file_id = $4, updated_at = now() WHERE id = $1 AND user_id = $2 AND company_id = $3`,
      [agentId, scope.userId, scope.companyId, fileId],
      tx,
    );
  }

  /** Every agent of a company, whoever owns it, newest first (company administration). */
  async listForCompany(companyId: string): Promise<AgentEntity[]> {
    const rows: AgentWithOwnerRow[] = await this.db.query(
      `${WITH_OWNER_SQL} WHERE a.company_id = $1 ORDER BY a.created_at DESC, a.id DESC`,
      [companyId],
    );
    return rows.map(withOwner);
  }

  async findInCompany(companyId: string, agentId: string): Promise<AgentEntity | null> {
    const rows: AgentWithOwnerRow[] = await this.db.query(
      `${WITH_OWNER_SQL} WHERE a.id = $1 AND a.company_id = $2`,
      [agentId, companyId],
    );
    return rows[0] ? withOwner(rows[0]) : null;
  }

  async setActiveInCompany(companyId: string, agentId: string, isActive: boolean): Promise<void> {
    await this.db.query(
      'UPDATE agents SET is_active = $3, updated_at = now() WHERE id = $1 AND company_id = $2',
      [agentId, companyId, isActive],
    );
  }

  async countForCompany(companyId: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM agents WHERE company_id = $1',
      [companyId],
    );
    return row.count;
  }

  /**
   * Its chats, their messages and files' rows go with it (foreign keys cascade); returns how many chats
   * went.
   */
  async remove(tx: Tx, scope: OwnerScope, agentId: string): Promise<number> {
    const rows: Array<{ chats: number }> = await this.db.query(
      `WITH gone AS (DELETE FROM agents WHERE id = $1 AND user_id = $2 AND company_id = $3 RETURNING id)
       SELECT (SELECT count(*)::int FROM chats WHERE agent_id IN (SELECT id FROM gone)) AS chats`,
      [agentId, scope.userId, scope.companyId],
      tx,
    );
    return rows[0]?.chats ?? 0;
  }
}
