import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { ChatsService } from '../chats/chats.service';
import type { AskRefusal } from '../chats/versions/reply-versions.repository';
import { ReplyVersionsRepository } from '../chats/versions/reply-versions.repository';
import type { CompanyScope } from '../common/company-scope';
import { ConflictError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { decodeKeyset, encodeKeyset } from '../common/keyset-cursor';
import { requireManager } from '../company-admin/require-manager';
import {
  type BulkReplayResult,
  DELIVERY_BULK_REPLAY_CAP,
  DELIVERY_PAGE_SIZE,
  type DeliveryDetail,
  type DeliveryListQuery,
  type DeliveryPage,
  type DeliverySettings,
  FAILED_DELIVERY_OUTCOMES,
} from '../contracts/deliveries';
import { Database } from '../database/database';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { DeliveriesRepository, type ReplayTarget } from './deliveries.repository';

export const DELIVERY_NOT_FOUND = 'Delivery not found';
export const INVALID_DELIVERY_CURSOR = 'Invalid cursor: load the delivery log again from the start.';
export const ALREADY_REPLAYED = 'This delivery has already been replayed.';
export const NOT_FAILED = 'Only failed deliveries can be replayed: this one did not fail.';
export const STILL_RETRYING = 'This delivery is still being retried: wait for its last attempt.';
export const CHAT_GONE = 'The chat of this delivery no longer exists (it was deleted).';
export const AGENT_GONE = 'The agent of this delivery no longer exists.';
export const AGENT_OFF = 'The agent of this delivery is not active: turn it on before replaying.';
export const ASKED_SINCE =
  'The reply to this message has been asked for again since (a regenerate, an edit or a replay).';
export const WRITTEN_SINCE =
  'The user has written in this chat since: only the latest message of a chat can be replayed.';
export const CHAT_ARCHIVED_REPLAY = 'The chat of this delivery is archived.';
export const REPLY_IN_FLIGHT = 'The agent is answering this chat right now: replay once it is done.';
export const SINCE_IN_FUTURE = 'since must not be in the future';

function replayRefusal(target: ReplayTarget): string | null {
  if (target.replayedAt) return ALREADY_REPLAYED;
  if (target.outcome === 'retrying' || target.outcome === 'accepted') return STILL_RETRYING;
  if (!(FAILED_DELIVERY_OUTCOMES as readonly string[]).includes(target.outcome)) return NOT_FAILED;
  if (!target.chatUserId || target.messageRound === null) return CHAT_GONE;
  if (!target.agentExists) return AGENT_GONE;
  if (target.messageRound !== target.round) return ASKED_SINCE;
  if (target.replyStatus === 'pending') return REPLY_IN_FLIGHT;
  return null;
}

function askRefusal(reason: AskRefusal): string {
  switch (reason) {
    case 'not_found':
      return CHAT_GONE;
    case 'archived':
      return CHAT_ARCHIVED_REPLAY;
    case 'inactive':
      return AGENT_OFF;
    case 'not_latest':
      return WRITTEN_SINCE;
    case 'pending':
    case 'concurrent':
      return REPLY_IN_FLIGHT;
  }
}

/** A unique violation (the one-pending-reply index): a send got there first. */
const isUniqueViolation = (error: unknown): boolean =>
  (error as { driverError?: { code?: string } })?.driverError?.code === '23505';

/**
 * Company Admin → Delivery log (owners and admins of the company): the webhook deliveries of the
 * company's chats, one with its kept bodies, Replay (one, or every failed one of an agent since a time)
 * and the bodies' retention.
 */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly database: Database,
    private readonly deliveries: DeliveriesRepository,
    private readonly versions: ReplyVersionsRepository,
    private readonly chats: ChatsService,
    private readonly realtime: RealtimePublisher,
    private readonly audit: AuditService,
  ) {}

  async list(
    scope: CompanyScope,
    query: Omit<DeliveryListQuery, 'outcome'> & { outcome?: DeliveryListQuery['outcome'] | 'failed' },
  ): Promise<DeliveryPage> {
    requireManager(scope);
    const limit = query.limit ?? DELIVERY_PAGE_SIZE;
    const before = decodeKeyset(query.before, INVALID_DELIVERY_CURSOR);
    const rows = await this.deliveries.page(scope.companyId, {
      agentId: query.agentId,
      outcome: query.outcome,
      before,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      deliveries: page.map((row) => row.view),
      nextCursor: rows.length > limit && last ? encodeKeyset(last.keyset) : null,
    };
  }

  async get(scope: CompanyScope, id: string): Promise<DeliveryDetail> {
    requireManager(scope);
    const found = await this.deliveries.find(scope.companyId, id);
    if (!found) throw new NotFoundError(DELIVERY_NOT_FOUND);
    return found;
  }

  /** Replays one failed delivery; 409 with why when it cannot be. */
  async replay(scope: CompanyScope, id: string, ip: string | null): Promise<DeliveryDetail> {
    requireManager(scope);
    const refused = await this.replayOne(scope, id, ip, true);
    if (refused === 'not_found') throw new NotFoundError(DELIVERY_NOT_FOUND);
    if (refused) throw new ConflictError(refused);
    return this.get(scope, id);
  }

  /**
   * Replays every failed delivery of an agent since a time that was not replayed (the latest round of
   * each message), oldest first, up to DELIVERY_BULK_REPLAY_CAP; one audit entry with the count.
   */
  async replayFailedSince(
    scope: CompanyScope,
    request: { agentId: string; since: string },
    ip: string | null,
  ): Promise<BulkReplayResult> {
    requireManager(scope);
    const since = new Date(request.since);
    if (since.getTime() > Date.now() + 60_000) throw new ValidationFailedError(SINCE_IN_FUTURE);
    const found = await this.deliveries.failedSince(
      scope.companyId,
      request.agentId,
      since,
      DELIVERY_BULK_REPLAY_CAP,
    );
    let replayed = 0;
    for (const id of found.ids) if ((await this.replayOne(scope, id, ip, false)) === null) replayed++;
    const result = {
      replayed,
      skipped: found.ids.length - replayed,
      overCap: Math.max(0, found.total - found.ids.length),
    };
    if (found.ids.length)
      await this.audit.record(null, {
        action: 'delivery.replayed',
        actor: { id: scope.userId },
        target: { type: 'agent', id: request.agentId, label: null },
        company: { id: scope.companyId },
        ip,
        details: { bulk: true, since: since.toISOString(), ...result },
      });
    return result;
  }

  /**
   * One replay, in one transaction: the delivery locked (a second replay at once waits, then finds it
   * replayed), checked, the message asked again for the next round by the regenerate's statement (so
   * the failed or apologised reply is replaced, never half-written), the delivery marked replayed (and
   * the audit entry for a single replay). After the commit the user's tabs hear of it, and the round is
   * queued. Null when replayed; else why not.
   */
  private async replayOne(
    scope: CompanyScope,
    id: string,
    ip: string | null,
    audited: boolean,
  ): Promise<string | null> {
    let asked;
    try {
      asked = await this.database.transaction(async (tx) => {
        const target = await this.deliveries.lockForReplay(tx, scope.companyId, id);
        if (!target) return { refused: 'not_found' as string };
        const refusal = replayRefusal(target);
        if (refusal) return { refused: refusal };
        const owner = { userId: target.chatUserId as string, companyId: scope.companyId };
        const again = await this.versions.askAgain(owner, target.messageId, null, tx);
        if ('refused' in again) return { refused: askRefusal(again.refused) };
        await this.deliveries.markReplayed(tx, id, scope.userId);
        if (audited)
          await this.audit.record(tx, {
            action: 'delivery.replayed',
            actor: { id: scope.userId },
            target: { type: 'delivery', id, label: null },
            company: { id: scope.companyId },
            ip,
            details: { agentId: target.agentId, chatId: target.chatId, messageId: target.messageId },
          });
        return { again, owner };
      });
    } catch (error) {
      if (isUniqueViolation(error)) return REPLY_IN_FLIGHT;
      throw error;
    }
    if ('refused' in asked) return asked.refused ?? null;
    const { again, owner } = asked;
    const { message, chat, replacedReplyId, round } = again;
    this.realtime.toUser(owner.userId, 'message.versioned', {
      companyId: owner.companyId,
      chatId: chat.id,
      message,
      replacedReplyId,
      chat,
    });
    this.realtime.toUser(owner.userId, 'agent.typing', {
      companyId: owner.companyId,
      chatId: chat.id,
      typing: true,
    });
    await this.chats.queueReplyRound(message.id, round, {
      previousReplyId: replacedReplyId,
      edited: false,
      replayOf: id,
    });
    return null;
  }

  async settings(scope: CompanyScope): Promise<DeliverySettings> {
    requireManager(scope);
    const days = await this.deliveries.retention(scope.companyId);
    if (days === null) throw new NotFoundError('Company not found');
    return { retentionDays: days };
  }

  /** Sets how long bodies are kept; audited. Bodies already past it are cleared by the next prune. */
  async setSettings(
    scope: CompanyScope,
    retentionDays: number,
    ip: string | null,
  ): Promise<DeliverySettings> {
    requireManager(scope);
    await this.database.transaction(async (tx) => {
      const before = await this.deliveries.setRetention(tx, scope.companyId, retentionDays);
      if (before === null) throw new NotFoundError('Company not found');
      if (before !== retentionDays)
        await this.audit.record(tx, {
          action: 'delivery.retention_changed',
          actor: { id: scope.userId },
          target: { type: 'company', id: scope.companyId },
          company: { id: scope.companyId },
          ip,
          details: { from: before, to: retentionDays },
        });
    });
    return { retentionDays };
  }
}
