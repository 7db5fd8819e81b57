import { Inject, Injectable, Logger } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import { AuditService } from '../audit/audit.service';
import type { OwnerScope } from '../common/company-scope';
import { CHAT_PAGE_SIZE, type ChatPage } from '../contracts/chats';
import { ConflictError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { decodeKeyset, encodeKeyset } from '../common/keyset-cursor';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { recordAgentReply, recordReplies } from '../metrics/metrics';
import { JobQueue } from '../queue/job-queue';
import type { ChatView, MessageView } from '../realtime/client-events';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { ChatsRepository } from './chats.repository';
import { AGENT_REPLY_ATTEMPTS } from './jobs/agent-reply.constants';
import { type PartialReply, ReplyStreamStore } from './streaming/reply-stream.store';

/** A reply pending this long with no job known to the queue was lost, not slow to start. */
const LOST_REPLY_AFTER_MS = 5_000;
import {
  type FailedReply,
  MessagesRepository,
  type PendingReply,
  type SendOutcome,
} from './messages.repository';
import { Database } from '../database/database';
import type { FailureKind } from '../insights/insight-buckets';
import type { DeliveryRecord } from '../deliveries/deliveries.repository';
import { InsightsTicker } from '../insights/insights-recorder';
import { type AgentFile, AttachmentsService } from '../files/attachments.service';
import type { Readable } from 'node:stream';
import type { MessageAttachment } from '../contracts/chats';
import type { ReplyFile } from '../files/agent-reply-files';
import { MessageQuotaService } from '../quotas/message-quota.service';

export const CHAT_NOT_FOUND = 'Chat not found';
export const CHAT_ARCHIVED = 'This chat is archived. Restore it to send messages.';
export const REPLY_PENDING = 'Please wait for the agent to reply before sending another message.';
export const AGENT_INACTIVE = 'This agent is not active';
const EMPTY_MESSAGE = 'Please enter a message';
export const MESSAGE_NOT_FOUND = 'Message not found';
export const ONLY_AGENT_VOICE_TURNS_RATED = "Only the agent's turns of a voice call can be rated.";

export const INVALID_CHAT_CURSOR = 'Invalid cursor: load the chat list again from the start.';

/**
 * The queue's id of a reply job: the message id for a first reply, with the round after it for a reply
 * asked for again (so a regenerate is not taken for the first reply's job, kept after it ended).
 */
export const replyJobId = (messageId: string, round: number): string =>
  round ? `${messageId}-r${round}` : messageId;

/** The spec's title for a chat the user did not name. */
const defaultTitle = (agentName: string): string => `Chat with ${agentName}`;

function messageText(content: string): string {
  const text = content.trim();
  if (!text) throw new ValidationFailedError(EMPTY_MESSAGE);
  return text;
}

/** The chat rules for a user message: a chat of the owner's, not archived, no reply pending, agent active. */
function sentOrRefused(outcome: SendOutcome): { chat: ChatView; message: MessageView } {
  if (!('refused' in outcome)) return outcome;
  switch (outcome.refused) {
    case 'not_found':
      throw new NotFoundError(CHAT_NOT_FOUND);
    case 'archived':
      throw new ValidationFailedError(CHAT_ARCHIVED);
    case 'pending':
      throw new ConflictError(REPLY_PENDING);
    case 'inactive':
      throw new ValidationFailedError(AGENT_INACTIVE);
  }
}

/** Chats and messages of one user in one company; nothing here reads across either boundary. */
@Injectable()
export class ChatsService {
  private readonly logger = new Logger('Chats');

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly chats: ChatsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly agents: AgentsService,
    private readonly queue: JobQueue,
    private readonly realtime: RealtimePublisher,
    private readonly replyStreams: ReplyStreamStore,
    private readonly attachments: AttachmentsService,
    private readonly insights: InsightsTicker,
    private readonly audit: AuditService,
    private readonly messageQuota: MessageQuotaService,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
  }

  private readonly allowedHosts: ReadonlySet<string>;

  /** One page of the Active or Archived list, newest first; `cursor` is the page before's nextCursor. */
  async list(
    scope: OwnerScope,
    query: { archived?: boolean; limit?: number; cursor?: string },
  ): Promise<ChatPage> {
    const limit = query.limit ?? CHAT_PAGE_SIZE;
    const after = decodeKeyset(query.cursor, INVALID_CHAT_CURSOR);
    const rows = await this.chats.page(scope, { archived: query.archived ?? false, limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      chats: page.map((row) => row.chat),
      nextCursor: rows.length > limit && last ? encodeKeyset(last.keyset) : null,
    };
  }

  /**
   * The version of the chat screen's data (this user's agents and chats in the company) that a socket's
   * catch-up compares: read before the data it stands for, it can only be older than that data.
   */
  syncVersion(scope: OwnerScope): Promise<{ version: string; pending: boolean }> {
    return this.chats.syncVersion(scope);
  }

  async get(scope: OwnerScope, chatId: string): Promise<ChatView> {
    const chat = await this.chats.find(scope, chatId);
    if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
    return chat;
  }

  /**
   * New Chat: a chat with the agent titled 'Chat with {agent}'. When the user already has one with that
   * agent that never got a message, that one comes back (moved up) instead of another empty row; a
   * chat asked for by title is always new.
   */
  async create(scope: OwnerScope, agentId: string, title?: string): Promise<ChatView> {
    const agent = await this.agents.resolve(scope, agentId);
    const { chatId, reused } = await this.database.transaction(async (tx) => {
      if (title === undefined) {
        await this.chats.lockNewChat(tx, scope, agent.id);
        const empty = await this.chats.reuseEmpty(tx, scope, agent.id);
        if (empty) return { chatId: empty.id, reused: true };
      }
      return {
        chatId: await this.chats.insert(scope, agent.id, title ?? defaultTitle(agent.name), tx),
        reused: false,
      };
    });
    const chat = await this.get(scope, chatId);
    this.realtime.toUser(scope.userId, reused ? 'chat.updated' : 'chat.created', {
      companyId: scope.companyId,
      chat,
    });
    return chat;
  }

  async update(
    scope: OwnerScope,
    chatId: string,
    changes: { title?: string; isArchived?: boolean },
  ): Promise<ChatView> {
    await this.get(scope, chatId);
    if (changes.title !== undefined || changes.isArchived !== undefined) {
      await this.chats.update(scope, chatId, changes);
    }
    const chat = await this.get(scope, chatId);
    this.realtime.toUser(scope.userId, 'chat.updated', { companyId: scope.companyId, chat });
    return chat;
  }

  /**
   * Deletes the chat with its messages and files, and records in the audit log what went (the title is
   * left out: the chat was its owner's alone). The rows of the chat's files go with it; bytes kept
   * outside PostgreSQL are deleted after the commit.
   */
  async remove(scope: OwnerScope, chatId: string, ip: string | null = null): Promise<void> {
    const removed = await this.database.transaction(async (tx) => {
      if (!(await this.chats.lockOwned(tx, scope, chatId))) throw new NotFoundError(CHAT_NOT_FOUND);
      const files = await this.attachments.removalSummary(tx, { chatId });
      const chat = await this.chats.removeWithMessages(tx, chatId);
      await this.audit.record(tx, {
        action: 'chat.deleted',
        actor: { id: scope.userId },
        target: { type: 'chat', id: chatId, label: null },
        company: { id: scope.companyId },
        ip,
        details: { messages: chat.messages, files: files.files, fileBytes: files.bytes },
      });
      return files;
    });
    await this.attachments.removeExternal(removed.externalIds);
    this.realtime.toUser(scope.userId, 'chat.deleted', { companyId: scope.companyId, chatId });
  }

  /** A page of messages, oldest first (`before`: older history; `after`: resync since a known one). */
  async messages(
    scope: OwnerScope,
    chatId: string,
    page: { before?: string; after?: string; limit?: number },
  ): Promise<{
    messages: MessageView[];
    hasMore: boolean;
    pendingReply: boolean;
    streamingReply: PartialReply | null;
  }> {
    const chat = await this.get(scope, chatId);
    const found = await this.messageRows.page(chatId, { ...page, limit: page.limit ?? 50 });
    const files = await this.attachments.ofMessages(found.messages.map((m) => m.id));
    for (const message of found.messages) {
      const attached = files.get(message.id);
      if (attached) message.attachments = attached;
    }
    // A reply streaming now: its text so far, for a tab opened (or reloaded) mid-stream.
    const streamingReply = chat.pendingReply ? await this.replyStreams.read(chatId) : null;
    return { ...found, pendingReply: chat.pendingReply, streamingReply };
  }

  /**
   * The first message with no active chat: creates 'Chat with {agent}' and stores the message in one
   * transaction, so a message that cannot be sent leaves no empty chat behind; events follow the commit.
   */
  async sendFirst(
    scope: OwnerScope,
    agentId: string,
    content: string,
    attachmentIds: readonly string[] = [],
  ): Promise<{ chat: ChatView; message: MessageView }> {
    // Files (uploaded to the company before the chat existed) make the text optional.
    const text = attachmentIds.length ? content.trim() : messageText(content);
    const agent = await this.agents.resolve(scope, agentId);
    const sent = await this.withinQuota(scope, () =>
      this.database.transaction(async (tx) => {
        const chatId = await this.chats.insert(scope, agent.id, defaultTitle(agent.name), tx);
        if (!attachmentIds.length)
          // The chat is new (neither archived nor waiting); the agent may have been switched off meanwhile.
          return sentOrRefused(await this.messageRows.sendUserMessage(scope, chatId, text, tx));
        const names = await this.attachments.namesOf(tx, scope, null, attachmentIds);
        const preview = text || names.map((name) => `📎 ${name}`).join(', ');
        const stored = sentOrRefused(
          await this.messageRows.sendUserMessage(scope, chatId, text, tx, preview),
        );
        const files = await this.attachments.attach(
          tx,
          scope,
          chatId,
          stored.message.id,
          attachmentIds,
          null,
        );
        return { ...stored, message: { ...stored.message, attachments: files } };
      }),
    );
    this.realtime.toUser(scope.userId, 'chat.created', { companyId: scope.companyId, chat: sent.chat });
    await this.afterUserMessage(scope, sent);
    return sent;
  }

  /**
   * Stores the user's message and answers at once; the agent's reply follows as a job. The message is
   * committed before anything else happens, so nothing the user sent is ever lost.
   */
  async send(
    scope: OwnerScope,
    chatId: string,
    content: string,
    attachmentIds: readonly string[] = [],
  ): Promise<MessageView> {
    if (attachmentIds.length) return this.sendWithFiles(scope, chatId, content, attachmentIds);
    const text = messageText(content);
    // One statement: lock the chat (checking its agent and any pending reply), store the message, move
    // the chat up the list; committed when it returns.
    const sent = await this.withinQuota(scope, async () =>
      sentOrRefused(await this.messageRows.sendUserMessage(scope, chatId, text)),
    );
    await this.afterUserMessage(scope, sent);
    return sent.message;
  }

  /**
   * A message with files (its text optional): the message and the links to its files in one
   * transaction, so a file that is not the sender's, or already sent, sends nothing.
   */
  private async sendWithFiles(
    scope: OwnerScope,
    chatId: string,
    content: string,
    attachmentIds: readonly string[],
  ): Promise<MessageView> {
    const text = content.trim();
    const sent = await this.withinQuota(scope, () =>
      this.database.transaction(async (tx) => {
        const names = await this.attachments.namesOf(tx, scope, chatId, attachmentIds);
        const preview = text || names.map((name) => `📎 ${name}`).join(', ');
        const stored = sentOrRefused(
          await this.messageRows.sendUserMessage(scope, chatId, text, tx, preview),
        );
        const files = await this.attachments.attach(tx, scope, chatId, stored.message.id, attachmentIds);
        return { ...stored, message: { ...stored.message, attachments: files } };
      }),
    );
    await this.afterUserMessage(scope, sent);
    return sent.message;
  }

  /** An upload for a first message, before its chat exists (POST /api/messages takes it). */
  uploadFirstAttachment(
    scope: OwnerScope,
    name: string,
    file: Readable,
    declaredBytes?: number,
  ): Promise<MessageAttachment> {
    return this.attachments.upload(scope, null, name, file, declaredBytes);
  }

  /** An upload for the next message in one of the owner's chats (not an archived one). */
  async uploadAttachment(
    scope: OwnerScope,
    chatId: string,
    name: string,
    file: Readable,
    declaredBytes?: number,
  ): Promise<MessageAttachment> {
    const chat = await this.get(scope, chatId);
    if (chat.isArchived) throw new ValidationFailedError(CHAT_ARCHIVED);
    return this.attachments.upload(scope, chatId, name, file, declaredBytes);
  }

  /**
   * The files of a user message as its agent's webhook body lists them: signed, expiring links, or
   * (`inline`) small files' bytes in base64.
   */
  agentFiles(messageId: string, inline: boolean): Promise<AgentFile[]> {
    return inline ? this.attachments.forAgentInline(messageId) : this.attachments.forAgent(messageId);
  }

  /**
   * The files of an agent's answer, fetched (SSRF-guarded) or decoded and stored to the chat before the
   * reply is; a file that cannot be is left out.
   */
  async storeAgentFiles(
    target: { userId: string; companyId: string; chatId: string },
    files: readonly ReplyFile[],
  ): Promise<{ ids: string[]; names: string[] }> {
    const stored = { ids: [] as string[], names: [] as string[] };
    const rules = { allowedHosts: this.allowedHosts, timeoutMs: this.config.webhookTimeoutMs };
    for (const file of files) {
      const id = await this.attachments.storeFromAgent(target, file, rules);
      if (!id) continue;
      stored.ids.push(id);
      stored.names.push(file.name);
    }
    return stored;
  }

  /**
   * Stores a user message within the company's message quotas: a unit of each is taken first (or the
   * message refused, 429, before anything is stored) and given back when storing then fails or is
   * refused (an archived chat, a reply pending, a file not the sender's).
   */
  private async withinQuota<T>(scope: OwnerScope, store: () => Promise<T>): Promise<T> {
    const admission = await this.messageQuota.admit(scope);
    try {
      return await store();
    } catch (error) {
      await this.messageQuota.giveBack(admission);
      throw error;
    }
  }

  /** After the commit: tell the user's tabs, then queue the agent's reply. */
  private async afterUserMessage(
    scope: OwnerScope,
    { chat, message, firstReply }: { chat: ChatView; message: MessageView; firstReply?: PendingReply },
  ): Promise<void> {
    const { userId, companyId } = scope;
    this.realtime.toUser(userId, 'message.created', { companyId, chatId: chat.id, message, chat });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId: chat.id, typing: true });
    this.insights.touch(companyId);
    try {
      await this.queueReply(message.id, firstReply);
    } catch (error) {
      // The message is stored and its reply stays pending: the sweep queues it again once the queue is
      // back (PostgreSQL, not Redis, is the record of what still needs an answer).
      this.logger.warn(`Could not queue the reply to ${message.id} (the sweep will): ${String(error)}`);
    }
  }

  /** `firstReply`: the job's context as the send read it, for a first attempt in this process. */
  private queueReply(messageId: string, firstReply?: PendingReply): Promise<void> {
    return this.queue.enqueue(
      'agent.reply',
      { messageId },
      { jobId: replyJobId(messageId, 0), attempts: AGENT_REPLY_ATTEMPTS, prefetched: firstReply },
    );
  }

  /**
   * Queues the reply of a round asked for again (a regenerate or an edit): a job id of its own, so it is
   * not taken for the first reply's job (kept by the queue after it ended). A queue that is down leaves
   * the reply pending, and the sweep queues it.
   */
  async queueReplyRound(
    messageId: string,
    round: number,
    request: { previousReplyId: string | null; edited: boolean; replayOf?: string },
  ): Promise<void> {
    try {
      await this.queue.enqueue(
        'agent.reply',
        {
          messageId,
          round,
          previousReplyId: request.previousReplyId,
          edited: request.edited,
          ...(request.replayOf ? { replayOf: request.replayOf } : {}),
        },
        { jobId: replyJobId(messageId, round), attempts: AGENT_REPLY_ATTEMPTS },
      );
    } catch (error) {
      this.logger.warn(`Could not queue the reply to ${messageId} (the sweep will): ${String(error)}`);
    }
  }

  /**
   * Stores one final transcript turn of a voice call as a voice message (the webhook never answers it),
   * moves the chat up the list and tells the user's tabs. A turn already stored (same provider event in
   * this chat: a retry, or a second tab saving the same call) is returned as it is, with no event.
   */
  async storeVoiceTurn(
    scope: OwnerScope,
    chatId: string,
    turn: { role: 'user' | 'agent'; text: string; voiceEventId: string },
  ): Promise<MessageView> {
    const text = messageText(turn.text);
    const result = await this.database.transaction(async (tx) => {
      const state = await this.chats.lockForVoice(tx, scope, chatId);
      if (!state) throw new NotFoundError(CHAT_NOT_FOUND);
      if (state.isArchived) throw new ValidationFailedError(CHAT_ARCHIVED);
      const stored = await this.messageRows.insertVoiceTurn(tx, {
        chatId,
        senderId: turn.role === 'user' ? scope.userId : state.agentId,
        senderType: turn.role,
        content: text,
        voiceEventId: turn.voiceEventId,
      });
      if (!stored) {
        const existing = await this.messageRows.findVoiceTurn(chatId, turn.voiceEventId, tx);
        if (!existing) throw new ConflictError('This transcript turn is being saved. Please try again.');
        return { message: existing, chat: null };
      }
      const chat = await this.chats.touch(tx, chatId, text, stored.createdAt, state.pendingReply);
      return { message: stored.message, chat };
    });
    if (result.chat) {
      const { userId, companyId } = scope;
      this.realtime.toUser(userId, 'message.created', {
        companyId,
        chatId,
        message: result.message,
        chat: result.chat,
      });
    }
    return result.message;
  }

  /**
   * Pending replies whose job is gone (Redis flushed or restarted without persistence, a queue that
   * refused the job) are queued again. The job id is the message id (and round), so a reply still queued
   * or running is left alone, and a reply is stored at most once whatever happens.
   */
  async requeueLostReplies(): Promise<number> {
    let requeued = 0;
    for (const lost of await this.messageRows.pendingReplyIds(LOST_REPLY_AFTER_MS, 500)) {
      const { id, round } = lost;
      if (await this.queue.isQueued('agent.reply', replyJobId(id, round))) continue;
      await this.queue.enqueue(
        'agent.reply',
        round
          ? {
              messageId: id,
              round,
              previousReplyId: lost.previousReplyId,
              edited: lost.edited,
              ...(lost.replayOf ? { replayOf: lost.replayOf } : {}),
            }
          : { messageId: id },
        { jobId: replyJobId(id, round), attempts: AGENT_REPLY_ATTEMPTS },
      );
      requeued++;
    }
    return requeued;
  }

  /** What the reply job needs to call the agent, or null when there is nothing (left) to answer. */
  pendingReplyContext(messageId: string): Promise<PendingReply | null> {
    return this.messageRows.findPendingReply(messageId);
  }

  /**
   * Stores the agent's answer to a user message: at most once, however often the job runs (or an agent
   * calls back). False when the message no longer waited for it.
   */
  async storeReply(
    messageId: string,
    content: string,
    /** Files of the answer, already stored to the chat (storeAgentFiles). */
    files: { ids: readonly string[]; names: readonly string[] } = { ids: [], names: [] },
    /** The round answered: null takes whichever is pending (a user's Stop). */
    round: number | null = null,
    /** The delivery log's row of the webhook call that brought it: written with the reply. */
    delivery: DeliveryRecord | null = null,
  ): Promise<boolean> {
    const preview = content || files.names.map((name) => `📎 ${name}`).join(', ');
    const stored = await this.messageRows.storeReply(
      messageId,
      content,
      null,
      null,
      preview,
      round,
      delivery,
    );
    if (!stored) {
      await this.attachments.discardUnsent(files.ids);
      return false;
    }
    recordReplies('replied');
    recordAgentReply(stored.companyId, stored.chat.agentId, 'replied');
    if (files.ids.length)
      stored.message.attachments = await this.attachments.attachToReply(
        stored.message.id,
        stored.chat.id,
        files.ids,
      );
    const { userId, companyId, message, chat } = stored;
    const chatId = chat.id;
    this.realtime.toUser(userId, 'message.created', { companyId, chatId, message, chat });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId, typing: false });
    this.insights.touch(companyId);
    return true;
  }

  /**
   * Marks a reply as failed (once) and tells the user's tabs; the user's message stays. `failure`: why,
   * as the Insights count it; `round`: only if the reply pending is still of that round.
   */
  async failReply(
    messageId: string,
    reason: string,
    failure: FailureKind,
    round: number | null = null,
  ): Promise<void> {
    const failed = await this.messageRows.markReplyFailed(messageId, failure, round);
    recordReplies('failed', failed.length);
    for (const row of failed) {
      recordAgentReply(row.companyId, row.agentId, failure);
      this.emitFailure(row, reason);
    }
  }

  /** Replies pending longer than any attempt could take are failed, so no indicator spins forever. */
  async failStaleReplies(): Promise<number> {
    const budgetMs = AGENT_REPLY_ATTEMPTS * (this.config.webhookTimeoutMs + 10_000) + 60_000;
    const failed = await this.messageRows.markStaleRepliesFailed(budgetMs);
    recordReplies('failed', failed.length);
    for (const row of failed) {
      recordAgentReply(row.companyId, row.agentId, 'timeout');
      this.emitFailure(row, 'The agent did not answer in time.');
    }
    return failed.length;
  }

  private emitFailure({ messageId, chatId, userId, companyId }: FailedReply, reason: string): void {
    this.realtime.toUser(userId, 'agent.reply_failed', { companyId, chatId, messageId, reason });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId, typing: false });
    this.insights.touch(companyId);
  }
}
