import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient } from '../common/redis-client';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
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
 * again: at most one `insights.tick` per company every INSIGHTS_TICK_MS. Per process a change waits
 * for the changes that follow it (per message: a Map lookup); when its time comes, with REDIS_URL, a
 * `SET NX PX` gate lets one process of all speak for the window: a process gated out tries again when
 * the window ends, so the last change is never left without a tick. Redis away: each process ticks on
 * its own (as many ticks as processes, none lost).
 */
@Injectable()
export class InsightsTicker implements OnModuleDestroy {
  private readonly logger = new Logger('Insights');
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  private readonly gate: Redis | null;
  /** Set once the module is destroyed: no tick is sent or scheduled after it. */
  private closed = false;

  /** The window (tests shorten it). */
  windowMs = INSIGHTS_TICK_MS;

  constructor(
    private readonly realtime: RealtimePublisher,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.gate = config.redisUrl
      ? createRedisClient(config.redisUrl, 'insights tick gate', {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
        })
      : null;
  }

  touch(companyId: string): void {
    if (this.closed || this.waiting.has(companyId)) return;
    this.wait(companyId, this.windowMs);
  }

  async onModuleDestroy(): Promise<void> {
    // A tick already under way (waiting for the gate) sees this once the gate answers, and stops there:
    // nothing is sent through a closing app, nor asked of a closed gate.
    this.closed = true;
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    await closeRedisClient(this.gate);
  }

  private wait(companyId: string, ms: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => void this.tick(companyId), ms);
    timer.unref();
    this.waiting.set(companyId, timer);
  }

  private async tick(companyId: string): Promise<void> {
    if (this.closed) return;
    const retryInMs = await this.gatedFor(companyId);
    if (this.closed) return;
    if (retryInMs > 0) return this.wait(companyId, retryInMs);
    this.waiting.delete(companyId);
    this.realtime.toCompanyManagers(companyId, 'insights.tick', { companyId });
  }

  /** 0: this process ticks now; otherwise the ms until the window another process took ends. */
  private async gatedFor(companyId: string): Promise<number> {
    if (!this.gate || this.gate.status !== 'ready') return 0;
    const key = `switchboard:insights-tick:${companyId}`;
    try {
      const won = await this.gate.set(key, '1', 'PX', this.windowMs, 'NX');
      if (won) return 0;
      const left = await this.gate.pttl(key);
      return left > 0 ? left : 1;
    } catch (error) {
      this.logger.debug(`Insights tick gate unavailable, ticking from this process: ${String(error)}`);
      return 0;
    }
  }
}
