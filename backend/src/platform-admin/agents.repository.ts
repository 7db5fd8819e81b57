import { Injectable } from '@nestjs/common';
import type { PlatformAgentView } from '../contracts/platform-admin';
import { fullName } from './users.repository';
import { Database } from '../database/database';

interface AgentRow {
  id: string;
  name: string;
  company_id: string;
  company_name: string;
  owner_id: string | null;
  owner_email: string | null;
  owner_first: string | null;
  owner_last: string | null;
  webhook: string | null;
  elevenlabs_agent_id: string | null;
  is_active: boolean;
  is_default: boolean;
  created_at: Date;
  created_key: string;
}

/** The host (and port) of a webhook URL: never its path or query, which may carry a key. */
export function webhookHost(webhook: string | null): string | null {
  if (!webhook) return null;
  try {
    return new URL(webhook).host || null;
  } catch {
    return null;
  }
}

/** Every agent of the installation, read-only, newest first; the cursor is the last row's (created_at, id). */
@Injectable()
export class PlatformAgentsRepository {
  constructor(private readonly db: Database) {}

  async page(query: {
    companyId?: string;
    after?: { createdKey: string; id: string };
    limit: number;
  }): Promise<Array<PlatformAgentView & { cursorKey: string }>> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.companyId) {
      params.push(query.companyId);
      where.push(`a.company_id = $${params.length}`);
    }
    if (query.after) {
      params.push(query.after.createdKey, query.after.id);
      where.push(`(a.created_at, a.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(query.limit);
    // The signing secret and the full webhook never leave this query's caller: only the host is mapped.
    const rows: AgentRow[] = await this.db.query(
      `SELECT a.id, a.name, a.company_id, c.name AS company_name, p.id AS owner_id, p.email AS owner_email,
         p.first_name AS owner_first, p.last_name AS owner_last, a.webhook, a.elevenlabs_agent_id,
         a.is_active, a.is_default, a.created_at, a.created_at::text AS created_key
       FROM agents a
       JOIN companies c ON c.id = a.company_id
       LEFT JOIN profiles p ON p.id = a.user_id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      company: { id: row.company_id, name: row.company_name },
      owner: row.owner_id
        ? {
            id: row.owner_id,
            email: row.owner_email ?? '',
            name:
              fullName({ first_name: row.owner_first ?? '', last_name: row.owner_last ?? '' }) ||
              'Unnamed User',
          }
        : null,
      webhookHost: webhookHost(row.webhook),
      voiceId: row.elevenlabs_agent_id,
      isActive: row.is_active,
      isDefault: row.is_default,
      createdAt: row.created_at.toISOString(),
      cursorKey: row.created_key,
    }));
  }
}
