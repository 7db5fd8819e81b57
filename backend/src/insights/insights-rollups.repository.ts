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
}
