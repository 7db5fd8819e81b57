import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** A row of deltas for the hourly counters of the chat's company and agent, counted now. */
export interface RollupDelta {
  companyId: string;
  agentId: string;
  chatId: string;
  retries?: number;
  failure?: string;
  firstChunkMs?: number;
}

/** The one write of the rollups outside their triggers: the same insights_add upsert they call. */
@Injectable()
export class InsightsRollupsRepository {
  constructor(private readonly db: Database) {}

  async add(delta: RollupDelta): Promise<void> {
    await this.db.prepared(
      'insights.add',
      `SELECT insights_add($1, $2, now(), $3, 0, 0, $4, $5, NULL, $6, 0, 0)`,
      [
        delta.companyId,
        delta.agentId,
        delta.chatId,
        delta.retries ?? 0,
        delta.failure ?? null,
        delta.firstChunkMs ?? null,
      ],
    );
  }

  /** Merges the shards of hours before `before` into one row per company, agent and hour. */
  async compact(before: Date): Promise<number> {
    const rows = await this.db.query<{ moved: number }>(`SELECT insights_compact($1) AS moved`, [before]);
    return rows[0]?.moved ?? 0;
  }
}
