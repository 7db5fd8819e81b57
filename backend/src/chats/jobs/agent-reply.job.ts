import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AgentCallbackTokensService } from '../../agent-callbacks/agent-callback-tokens.service';
import { DEFAULT_AGENT_ID } from '../../agents/agents.service';
import { demoAgentResponse } from '../../agents/demo-agent';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobHandler } from '../../queue/job-handler.decorator';
import { type AgentReplyJob, type JobMeta, PermanentJobError } from '../../queue/job-types';
import {
  parseAgentReply,
  postWebhookStreaming,
  SORRY_REPLY,
  type StreamingWebhookOutcome,
} from '../../webhooks/webhook-client';
import { untilDatabaseAnswers } from '../../database/until-database-answers';
import { parseReplyFiles, type ReplyFile } from '../../files/agent-reply-files';
import type { FailureKind } from '../../insights/insight-buckets';
import { InsightsRecorder, type RollupTarget } from '../../insights/insights-recorder';
import { ChatsService, replyJobId } from '../chats.service';
import type { DeliveryOutcome } from '../../contracts/deliveries';
import type { DeliveryRecord } from '../../deliveries/deliveries.repository';
import { DeliveryRecorder, type WebhookCall } from '../../deliveries/delivery-recorder';
import { currentRequestId } from '../../logging/request-context';
import type { PendingReply, ReplyAgent } from '../messages.repository';
import { type ReplyStream, ReplyStreamingService } from '../streaming/reply-streaming.service';

/** Thrown to have the queue try again later (network errors, timeouts, 5xx). */
export class RetryableWebhookError extends Error {}

/** What a webhook call was sent (for the delivery log), and what settling its answer found. */
interface DeliveryNote {
  sent: { body: unknown; headers: Record<string, string>; requestId: string } | null;
  /** The answer had nothing readable (the apology was stored). */
  malformed?: boolean;
  /** The delivery's row with this outcome, to store with the reply (one statement). */
  row?: (outcome: DeliveryOutcome) => DeliveryRecord;
  /** Written with the reply already. */
  recorded?: boolean;
}

/** The failure kind of a call's outcome that failed the reply (the job's PermanentJobError). */
function failedOutcome(outcome: StreamingWebhookOutcome): DeliveryOutcome {
  switch (outcome.kind) {
    case 'http_error':
      return 'http_status';
    case 'timeout':
      return 'timeout';
    case 'network_error':
      return 'network';
    case 'too_large':
      return 'malformed';
    case 'refused':
      return 'ssrf_refused';
    case 'streamed':
      return outcome.ending === 'timeout' ? 'timeout' : 'agent_error';
    default:
      return 'other';
  }
}

/** The delivery log's outcome of a call whose answer was settled without an error. */
function settledOutcome(outcome: StreamingWebhookOutcome, note: DeliveryNote): DeliveryOutcome {
  if (outcome.kind === 'aborted') return 'stopped';
  if (outcome.kind === 'ok' && outcome.status === 202) return 'accepted';
  // A stream cut short after some text: that text is stored, marked; the delivery did not complete.
  if (outcome.kind === 'streamed' && outcome.ending !== 'end')
    return outcome.ending === 'timeout' ? 'timeout' : 'agent_error';
  return note.malformed ? 'malformed' : 'delivered';
}

/** The answer as the delivery log keeps it: the body read, or a stream's text. */
function answerOf(outcome: StreamingWebhookOutcome): string | null {
  switch (outcome.kind) {
    case 'ok':
    case 'http_error':
      return outcome.body;
    case 'streamed':
      return outcome.error ? `${outcome.text}\n[error] ${outcome.error}` : outcome.text;
    case 'aborted':
      return outcome.text;
    default:
      return null;
  }
}

/**
 * agent.reply: calls the chat's agent with the user's message and stores its answer once. Runs in the
 * worker (or in-process in the embedded default); safe to run twice for the same message.
 */
@Injectable()
export class AgentReplyJobHandler implements OnModuleDestroy {
  private readonly logger = new Logger('AgentReply');
  /** Set when the process shuts down: database waits end then (the pool is closing, not down). */
  private stopping = false;
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly chats: ChatsService,
    private readonly streaming: ReplyStreamingService,
    private readonly callbackTokens: AgentCallbackTokensService,
    private readonly insights: InsightsRecorder,
    private readonly deliveries: DeliveryRecorder,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
  }

  onModuleDestroy(): void {
    this.stopping = true;
  }

  /** Runs database work through an outage, not through this process's own shutdown. */
  private waitForDatabase<T>(what: string, work: () => Promise<T>): Promise<T> {
    return untilDatabaseAnswers(what, work, { stopping: () => this.stopping });
  }

  /**
   * A database outage neither spends the job's attempts (which are for the webhook) nor loses an answer
   * that has come: reads and writes wait for PostgreSQL, so the webhook is not called again for it.
   */
  @JobHandler('agent.reply')
  async sendAgentReply(job: AgentReplyJob, meta: JobMeta): Promise<void> {
    const id = job.messageId;
    // The message, its chat and the chat's agent: one query, or, on the first attempt of a job queued by
    // this process's send, what that send read in its own statement (ChatsService.send). That snapshot
    // is safe: it is the message and agent as committed moments ago, and a change since (an agent edited
    // or switched off, the reply stopped or answered) is the same window as one made while the webhook
    // call runs; the reply is still stored at most once (storeReply's pending check, the reply_to index).
    const context =
      (meta.prefetched as PendingReply | undefined) ??
      (await this.waitForDatabase(`reply to ${id}`, () => this.chats.pendingReplyContext(id)));
    if (!context) return; // answered, failed or deleted already
    // A job of an earlier round: the reply was asked for again since, and that round's job answers it.
    if (context.round !== (job.round ?? 0)) return;
    const agent = context.agent;
    if (!agent) return this.fail(id, 'The agent no longer exists.', 'other', context.round);
    // A streamed answer's pieces reach the user's tabs as they come; the reply is stored once, at the end.
    const stream = this.streaming.open({ ...context, messageId: id });
    const note: DeliveryNote = { sent: null };
    try {
      const startedAt = Date.now();
      const outcome = await this.callAgent(agent, context, stream, job, note);
      const durationMs = Date.now() - startedAt;
      await stream.flush();
      // The demo agent makes no webhook call: nothing to log.
      const sent = note.sent;
      const call = (kind: DeliveryOutcome, error: string | null): WebhookCall | null =>
        sent && {
          companyId: context.companyId,
          agentId: agent.id,
          chatId: context.chatId,
          messageId: id,
          round: context.round,
          startedAt,
          durationMs,
          attempt: meta.attempt,
          outcome: kind,
          httpStatus: 'status' in outcome && outcome.status ? outcome.status : null,
          requestId: sent.requestId,
          error,
          replayOf: job.replayOf ?? null,
          headers: sent.headers,
          body: sent.body,
          answer: answerOf(outcome),
        };
      if (sent) note.row = (kind) => this.deliveries.prepare(call(kind, null) as WebhookCall);
      let settled: DeliveryOutcome | null = null;
      let error: string | null = null;
      try {
        await this.settle(id, outcome, meta, agent, context, note);
        settled = settledOutcome(outcome, note);
      } catch (failure) {
        if (failure instanceof RetryableWebhookError) settled = 'retrying';
        else if (failure instanceof PermanentJobError) settled = failedOutcome(outcome);
        error = failure instanceof Error ? failure.message : String(failure);
        throw failure;
      } finally {
        // One row per delivery (per attempt, upserted); an answer stored wrote it with the reply.
        const unlogged = settled && !note.recorded ? call(settled, error) : null;
        if (unlogged) await this.deliveries.record(unlogged);
      }
      if (stream.firstChunkAt !== null)
        await this.insights.firstChunk(rollupTarget(context), context.askedAt, stream.firstChunkAt);
    } finally {
      await stream.close();
    }
  }

  private async settle(
    id: string,
    outcome: StreamingWebhookOutcome,
    meta: JobMeta,
    agent: ReplyAgent,
    context: PendingReply,
    note: DeliveryNote,
  ): Promise<void> {
    const round = context.round;
    switch (outcome.kind) {
      case 'ok': {
        // 202 Accepted: a long-running agent delivers later to callbackUrl (agent-callbacks/); the reply
        // stays pending, typing indicator on, until then or the deadline of the token this call carried.
        if (outcome.status === 202)
          return this.waitForDatabase(`awaiting the callback for ${id}`, () =>
            this.callbackTokens.accept(id, agent.callbackExpiresAt, agent.callbackDeadlineMinutes),
          );
        const replyFiles = parseReplyFiles(outcome.body);
        if (replyFiles.length) return this.storeReplyWithFiles(id, outcome.body, replyFiles, context);
        const text = parseAgentReply(outcome.body);
        const logged = note.row?.(text === SORRY_REPLY ? 'malformed' : 'delivered') ?? null;
        const stored = await this.waitForDatabase(`storing the reply to ${id}`, () =>
          this.chats.storeReply(id, text, undefined, round, logged),
        );
        note.recorded = stored && logged !== null;
        if (stored && text === SORRY_REPLY) {
          note.malformed = true;
          await this.insights.malformed(rollupTarget(context));
        }
        return;
      }
      case 'streamed':
        return this.settleStream(id, outcome, meta, context, note);
      case 'aborted':
        // Stopped by the user: the stop request stored what came (or nothing); nothing is left to do.
        return;
      case 'http_error': {
        const message = `Webhook response error: ${outcome.status}`;
        if (outcome.status >= 500) return this.retryOrFail(id, meta, message, 'http_status', context);
        await this.fail(id, message, 'http_status', round);
        throw new PermanentJobError(message);
      }
      case 'timeout':
        return this.retryOrFail(id, meta, 'The agent did not answer in time.', 'timeout', context);
      case 'network_error':
        return this.retryOrFail(
          id,
          meta,
          `The agent could not be reached (${outcome.message}).`,
          'network',
          context,
        );
      case 'too_large':
        await this.fail(id, 'The agent answered with more than 1 MB.', 'malformed', round);
        throw new PermanentJobError('response too large');
      case 'refused':
        await this.fail(id, outcome.message, 'ssrf_refused', round);
        throw new PermanentJobError(outcome.message);
    }
  }

  /**
   * An answer with files: each fetched (through the SSRF guard) or decoded and stored first, then the
   * reply with them. Files alone are a valid answer (no apology then); a file that cannot be stored is
   * left out.
   */
  private async storeReplyWithFiles(
    id: string,
    body: string,
    replyFiles: ReplyFile[],
    context: PendingReply,
  ): Promise<void> {
    const target = { userId: context.userId, companyId: context.companyId, chatId: context.chatId };
    const files = await this.chats.storeAgentFiles(target, replyFiles);
    const parsed = parseAgentReply(body);
    const text = parsed === SORRY_REPLY && files.ids.length ? '' : parsed;
    await this.waitForDatabase(`storing the reply to ${id}`, () =>
      this.chats.storeReply(id, text, files, context.round),
    );
  }

  /**
   * A streamed answer: the whole text when it ended (the apology when it had none, as for an empty
   * classic answer). Cut short by an error chunk or a stall after some text had come (and been shown),
   * that text is stored marked as such and not asked for again; an error chunk before any text fails
   * the reply with the agent's message.
   */
  private async settleStream(
    id: string,
    outcome: Extract<StreamingWebhookOutcome, { kind: 'streamed' }>,
    meta: JobMeta,
    context: PendingReply,
    note: DeliveryNote,
  ): Promise<void> {
    const { text, ending } = outcome;
    const round = context.round;
    if (ending === 'end' && outcome.files?.length) {
      // The end chunk's files, stored to the chat first, then the reply with them (text optional).
      const target = { userId: context.userId, companyId: context.companyId, chatId: context.chatId };
      const files = await this.chats.storeAgentFiles(target, outcome.files);
      const reply = text.trim() || files.ids.length ? text : SORRY_REPLY;
      await this.waitForDatabase(`storing the reply to ${id}`, () =>
        this.chats.storeReply(id, reply, files, round),
      );
      return;
    }
    if (ending === 'end') {
      const reply = text.trim() ? text : SORRY_REPLY;
      const logged = note.row?.(reply === SORRY_REPLY ? 'malformed' : 'delivered') ?? null;
      const stored = await this.waitForDatabase(`storing the reply to ${id}`, () =>
        this.chats.storeReply(id, reply, undefined, round, logged),
      );
      note.recorded = stored && logged !== null;
      if (stored && reply === SORRY_REPLY) {
        note.malformed = true;
        await this.insights.malformed(rollupTarget(context));
      }
      return;
    }
    if (text.trim()) {
      return this.waitForDatabase(`storing the reply to ${id}`, () =>
        this.streaming.storeInterrupted(
          id,
          text,
          ending,
          ending === 'error' ? (outcome.error ?? null) : null,
          round,
        ),
      );
    }
    if (ending === 'timeout')
      return this.retryOrFail(id, meta, 'The agent did not answer in time.', 'timeout', context);
    const reason = `The agent reported an error: ${outcome.error ?? 'no details'}`;
    await this.fail(id, reason, 'agent_error', round);
    throw new PermanentJobError(reason);
  }

  /**
   * POSTs the message to the agent's webhook (the spec's body), or asks the built-in demo agent. A reply
   * asked for again carries `regenerate: true` and the reply it replaces (a regenerate), or `edited:
   * true` (the message's text changed); its delivery id and callback token are the round's own.
   */
  private async callAgent(
    agent: ReplyAgent,
    context: PendingReply,
    stream: ReplyStream,
    job: AgentReplyJob,
    note: DeliveryNote,
  ): Promise<StreamingWebhookOutcome> {
    const round = context.round;
    const body = {
      message: context.message.content,
      sessionId: context.chatId,
      chatId: context.chatId,
      messageId: context.message.id,
      agentId: agent.isDefault ? DEFAULT_AGENT_ID : agent.id,
      userId: context.userId,
      companyId: context.companyId,
      // Signed links that expire within minutes (docs/webhook-signatures.md); the signature covers
      // them. Absent when the message has no files.
      ...(context.hasFiles
        ? { files: await this.chats.agentFiles(context.message.id, agent.sendFilesInline ?? false) }
        : {}),
      ...(round && job.edited ? { edited: true } : {}),
      ...(round && !job.edited && !job.replayOf
        ? { regenerate: true, previousReplyId: job.previousReplyId ?? null }
        : {}),
      // Replayed from the delivery log by a company admin: the same message, asked again.
      ...(job.replayOf ? { replay: true } : {}),
    };
    const webhook = agent.isDefault ? this.config.defaultAgentWebhook : agent.webhook;
    // The built-in demo agent answers in-process, not through the network guard.
    if (!webhook) return { kind: 'ok', status: 200, body: JSON.stringify(demoAgentResponse(body.message)) };
    // Each attempt carries its own callback token, derived, not stored: nothing is written for it
    // (agent-callbacks/callback-token.ts). Earlier attempts' tokens stay valid until their expiry.
    const callback = this.callbackTokens.grant(context.message.id, agent.callbackExpiresAt, round);
    const sent = { ...body, ...callback };
    // Per round: a regenerate is a delivery of its own, not a retry of the first one.
    const deliveryId = replyJobId(context.message.id, round);
    // The headers as the delivery log shows them (the signature is redacted there).
    const requestId = currentRequestId();
    note.sent = {
      body: sent,
      requestId: deliveryId,
      headers: {
        'content-type': 'application/json',
        'webhook-id': deliveryId,
        ...(agent.signingSecret ? { 'webhook-signature': 'v1,…' } : {}),
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
    };
    return postWebhookStreaming(
      {
        url: webhook,
        body: sent,
        id: deliveryId,
        secret: agent.signingSecret,
        // Before the answer starts, and between a stream's chunks.
        timeoutMs: this.config.webhookTimeoutMs,
        allowedHosts: this.allowedHosts,
      },
      {
        onText: (text) => stream.push(text),
        onTool: (tool) => stream.tool(tool),
        signal: stream.signal,
        // A stream may run longer than one timeout as a whole (within the stale-reply sweep's budget).
        maxDurationMs: 2 * this.config.webhookTimeoutMs,
      },
    );
  }

  private async retryOrFail(
    messageId: string,
    meta: JobMeta,
    reason: string,
    failure: FailureKind,
    context: PendingReply,
  ): Promise<void> {
    if (meta.attempt < meta.maxAttempts) {
      this.logger.warn(`Reply to ${messageId}, attempt ${meta.attempt}/${meta.maxAttempts}: ${reason}`);
      await this.insights.retry(rollupTarget(context));
      throw new RetryableWebhookError(reason);
    }
    await this.fail(messageId, reason, failure, context.round);
    throw new PermanentJobError(reason);
  }

  private fail(messageId: string, reason: string, failure: FailureKind, round: number): Promise<void> {
    return this.waitForDatabase(`failing the reply to ${messageId}`, () =>
      this.chats.failReply(messageId, reason, failure, round),
    );
  }
}

/** The Insights counters a reply job's samples go to. */
function rollupTarget(context: PendingReply): RollupTarget {
  return { companyId: context.companyId, agentId: context.agentId, chatId: context.chatId };
}
