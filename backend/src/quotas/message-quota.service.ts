import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { OwnerScope } from '../common/company-scope';
import { TooManyRequestsError } from '../common/domain-errors';
import { closeRedisClient, createRedisClient } from '../common/redis-client';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type StoredQuotas, CompanyQuotasRepository } from './company-quotas.repository';
import {
  CountersUnavailableError,
  LocalMessageCounters,
  type MessageCounters,
  type QuotaCounter,
  RedisMessageCounters,
} from './message-counters';
import { companyMonthlyQuotaReached, userDailyQuotaReached, utcDay, utcMonth } from './message-quota-periods';

/** Where every process hears that a company's quotas changed (a platform admin saved them). */
export const QUOTAS_CHANGED_CHANNEL = 'switchboard:quotas-changed';

/** A process keeps a company's limits this long at most, should a change's notice not reach it. */
export const QUOTA_CACHE_MS = 60_000;

const KEY_PREFIX = 'switchboard:quota:messages';

/** The counters a message took: handed back with giveBack when the message is then not stored. */
export interface QuotaAdmission {
  readonly counters: readonly QuotaCounter[];
  /** Counted from PostgreSQL (Redis away): nothing to give back. */
  readonly fromDatabase: boolean;
}

type MessageLimits = Pick<StoredQuotas, 'messagesPerUserPerDay' | 'messagesPerCompanyPerMonth' | 'updatedAt'>;

/**
 * The message quotas (company_quotas: per member per UTC day, per company per calendar month). A user
 * message takes a unit of each counter its company has before it is stored, and gives it back when it
 * then is not; a counter at its limit refuses it (429 naming the limit and when it resets).
 *
 * - A company without message quotas costs a Map lookup: its limits are cached per process, and the
 *   cache is cleared on every process when a platform admin changes them (a Redis pub/sub channel;
 *   QUOTA_CACHE_MS bounds a notice lost while Redis was away).
 * - With REDIS_URL the counters are in Redis (one Lua script checks and takes them: every node shares
 *   them); without, in this process (single process). A counter starts from what PostgreSQL counted
 *   (the Insights rollups) the first time a period uses it, and its key carries when the limits last
 *   changed, so a limit set or changed mid-period starts from the true use.
 * - Redis away: the message is checked against PostgreSQL's count (not atomic between simultaneous
 *   requests) and the fall back is logged; nobody is refused for Redis being away.
 */
@Injectable()
export class MessageQuotaService implements OnModuleDestroy {
  private readonly logger = new Logger('MessageQuotas');
  private readonly cache = new Map<string, { limits: MessageLimits; readAt: number }>();
  private readonly counters: MessageCounters;
  private readonly redisCounters: RedisMessageCounters | null;
  private readonly client: Redis | null;
  private readonly subscriber: Redis | null;
  private fallingBack = false;

  /** The clock of the periods (tests set it). */
  now: () => number = () => Date.now();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly quotas: CompanyQuotasRepository,
  ) {
    if (!config.redisUrl) {
      this.client = this.subscriber = this.redisCounters = null;
      this.counters = new LocalMessageCounters();
      return;
    }
    this.client = createRedisClient(config.redisUrl, 'message quota counters', {
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
    });
    this.redisCounters = new RedisMessageCounters(this.client);
    this.counters = this.redisCounters;
    this.subscriber = createRedisClient(config.redisUrl, 'quota changes subscriber', {
      maxRetriesPerRequest: null,
    });
    this.subscriber.on('message', (_channel: string, companyId: string) => this.cache.delete(companyId));
    // Notices missed while the subscriber was away: forget every cached limit once it is back.
    this.subscriber.on('ready', () => this.cache.clear());
    this.subscriber
      .subscribe(QUOTAS_CHANGED_CHANNEL)
      .catch((error) => this.logger.warn(`Not subscribed to quota changes: ${String(error)}`));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([closeRedisClient(this.client), closeRedisClient(this.subscriber)]);
  }

  /**
   * Takes a unit of the sender's message quotas, or refuses the message (429). Null when the company
   * has none. Call before storing the message; giveBack(admission) if it is then not stored.
   */
  async admit(scope: OwnerScope): Promise<QuotaAdmission | null> {
    const limits = await this.limitsOf(scope.companyId);
    if (limits.messagesPerUserPerDay === null && limits.messagesPerCompanyPerMonth === null) return null;
    const nowMs = this.now();
    const counters = this.countersFor(scope, limits, nowMs);
    let result;
    let fromDatabase = false;
    try {
      result = await this.counters.take(counters, nowMs);
      if (this.fallingBack) {
        this.fallingBack = false;
        this.logger.log('Message quotas are counted in Redis again');
      }
    } catch (error) {
      if (!(error instanceof CountersUnavailableError)) throw error;
      if (!this.fallingBack) {
        this.fallingBack = true;
        this.logger.warn(`Message quotas counted from PostgreSQL while Redis is away: ${error.message}`);
      }
      this.redisCounters?.markStale(counters);
      result = await this.takeFromDatabase(counters);
      fromDatabase = true;
    }
    if (!result.taken) throw new TooManyRequestsError(this.refusal(result.counter, limits, nowMs));
    return { counters, fromDatabase };
  }

  /** The message of `admission` was not stored after all: its units go back. */
  async giveBack(admission: QuotaAdmission | null): Promise<void> {
    if (!admission || admission.fromDatabase) return;
    await this.counters.giveBack(admission.counters);
  }

  /**
   * What the company used this month and (`userId`) the member today, for Company Details: the
   * counters when there are, PostgreSQL's counts otherwise.
   */
  async usage(
    companyId: string,
    userId: string | null,
  ): Promise<{ messagesThisMonth: number; yourMessagesToday: number | null }> {
    const limits = await this.limitsOf(companyId);
    const nowMs = this.now();
    const month = utcMonth(nowMs);
    const day = utcDay(nowMs);
    const monthKey = this.companyKey(companyId, limits, month.key);
    const [messagesThisMonth, yourMessagesToday] = await Promise.all([
      limits.messagesPerCompanyPerMonth !== null
        ? this.counters.peek(monthKey, nowMs).then((n) => n ?? this.companySeed(companyId, nowMs))
        : this.companySeed(companyId, nowMs),
      userId === null
        ? null
        : limits.messagesPerUserPerDay !== null
          ? this.counters
              .peek(this.userKey(companyId, userId, limits, day.key), nowMs)
              .then((n) => n ?? this.quotas.userMessages(companyId, userId, day.key))
          : this.quotas.userMessages(companyId, userId, day.key),
    ]);
    return { messagesThisMonth, yourMessagesToday };
  }

  /** A platform admin changed the company's quotas: every process reads them again. */
  async limitsChanged(companyId: string): Promise<void> {
    this.cache.delete(companyId);
    if (!this.client) return;
    await this.client
      .publish(QUOTAS_CHANGED_CHANNEL, companyId)
      .catch((error) =>
        this.logger.warn(`Quota change of ${companyId} not published (caches expire): ${String(error)}`),
      );
  }

  private async limitsOf(companyId: string): Promise<MessageLimits> {
    const cached = this.cache.get(companyId);
    const nowMs = Date.now();
    if (cached && nowMs - cached.readAt < QUOTA_CACHE_MS) return cached.limits;
    const { messagesPerUserPerDay, messagesPerCompanyPerMonth, updatedAt } =
      await this.quotas.limits(companyId);
    const limits = { messagesPerUserPerDay, messagesPerCompanyPerMonth, updatedAt };
    this.cache.set(companyId, { limits, readAt: nowMs });
    return limits;
  }

  private countersFor(scope: OwnerScope, limits: MessageLimits, nowMs: number): QuotaCounter[] {
    const counters: QuotaCounter[] = [];
    const { companyId, userId } = scope;
    if (limits.messagesPerUserPerDay !== null) {
      const day = utcDay(nowMs);
      counters.push({
        key: this.userKey(companyId, userId, limits, day.key),
        limit: limits.messagesPerUserPerDay,
        expiresAtMs: day.end.getTime(),
        seed: () => this.quotas.userMessages(companyId, userId, day.key),
      });
    }
    if (limits.messagesPerCompanyPerMonth !== null) {
      const month = utcMonth(nowMs);
      counters.push({
        key: this.companyKey(companyId, limits, month.key),
        limit: limits.messagesPerCompanyPerMonth,
        expiresAtMs: month.end.getTime(),
        seed: () => this.companySeed(companyId, nowMs),
      });
    }
    return counters;
  }

  /** Counted from PostgreSQL alone (Redis away): the messages stored so far this period. */
  private async takeFromDatabase(counters: readonly QuotaCounter[]) {
    for (const counter of counters) {
      const used = await counter.seed();
      if (used + 1 > counter.limit) return { taken: false as const, counter, used };
    }
    return { taken: true as const };
  }

  private companySeed(companyId: string, nowMs: number): Promise<number> {
    const month = utcMonth(nowMs);
    return this.quotas.companyMessages(companyId, month.start, month.end);
  }

  private refusal(counter: QuotaCounter, limits: MessageLimits, nowMs: number): string {
    if (counter.key.startsWith(`${KEY_PREFIX}:user:`))
      return userDailyQuotaReached(limits.messagesPerUserPerDay ?? counter.limit);
    return companyMonthlyQuotaReached(
      limits.messagesPerCompanyPerMonth ?? counter.limit,
      utcMonth(nowMs).end,
    );
  }

  /** The limits' version in a key: a counter of limits since changed is not used again. */
  private version(limits: MessageLimits): number {
    return limits.updatedAt?.getTime() ?? 0;
  }

  private userKey(companyId: string, userId: string, limits: MessageLimits, day: string): string {
    return `${KEY_PREFIX}:user:${companyId}:${this.version(limits)}:${userId}:${day}`;
  }

  private companyKey(companyId: string, limits: MessageLimits, month: string): string {
    return `${KEY_PREFIX}:company:${companyId}:${this.version(limits)}:${month}`;
  }
}
