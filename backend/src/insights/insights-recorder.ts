import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InsightsRollupsRepository } from './insights-rollups.repository';
import { RealtimePublisher } from '../realtime/realtime-publisher';

/** Whose counters a sample goes to: the chat of the message and its company and agent. */
export interface RollupTarget {
  companyId: string;
  agentId: string;
  chatId: string;
}

/** How long a company's `insights.tick` waits for more changes to go with it. */
export const INSIGHTS_TICK_MS = 2_000;

/**
 * What the rollup triggers cannot see, recorded by the reply job with one upsert each (the same
 * insights_add the triggers call): a retry, an answer it could not read, a streamed reply's first piece.
 * None of these is on an ordinary message's path but the first piece of a stream. A failure here is
 * logged, never the job's: the reply matters more than its count.
 */
@Injectable()
export class InsightsRecorder {
  private readonly logger = new Logger('Insights');

  constructor(private readonly rollups: InsightsRollupsRepository) {}

  retry(target: RollupTarget): Promise<void> {
    return this.add(target, { retries: 1 });
  }

  /** The agent answered, but nothing readable (the apology was stored): a reply and a failure. */
  malformed(target: RollupTarget): Promise<void> {
    return this.add(target, { failure: 'malformed' });
  }

  /** From the user's message stored (`askedAt`) to the first piece of a streamed reply. */
  firstChunk(target: RollupTarget, askedAt: string, firstChunkAt: number): Promise<void> {
    return this.add(target, { firstChunkMs: Math.max(0, firstChunkAt - Date.parse(askedAt)) });
  }

  private async add(
    target: RollupTarget,
    delta: { retries?: number; failure?: string; firstChunkMs?: number },
  ): Promise<void> {
    try {
      await this.rollups.add({ ...target, ...delta });
    } catch (error) {
      this.logger.warn(`Could not count ${JSON.stringify(delta)} for ${target.chatId}: ${String(error)}`);
    }
  }
}

/**
 * Tells a company's managers that its Insights counters moved, so an open Insights page reads them
 * again: coalesced per company (at most one `insights.tick` every INSIGHTS_TICK_MS from this process),
 * so a busy company costs one event every few seconds, not one per message. Per message: a Map lookup.
 */
@Injectable()
export class InsightsTicker implements OnModuleDestroy {
  private readonly waiting = new Map<string, NodeJS.Timeout>();

  constructor(private readonly realtime: RealtimePublisher) {}

  touch(companyId: string): void {
    if (this.waiting.has(companyId)) return;
    const timer = setTimeout(() => {
      this.waiting.delete(companyId);
      this.realtime.toCompanyManagers(companyId, 'insights.tick', { companyId });
    }, INSIGHTS_TICK_MS);
    timer.unref();
    this.waiting.set(companyId, timer);
  }

  onModuleDestroy(): void {
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }
}
