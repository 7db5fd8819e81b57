import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEFAULT_AGENT_ID } from '../../agents/agents.service';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { JobHandler } from '../../queue/job-handler.decorator';
import { type AgentFeedbackJob, type JobMeta, PermanentJobError } from '../../queue/job-types';
import { postWebhook } from '../../webhooks/webhook-client';
import { MessagesRepository } from '../messages.repository';
import { RetryableWebhookError } from './agent-reply.job';

/**
 * agent.feedback: tells an agent that opted in (its "Send ratings" setting) that the user rated one of
 * its replies. POSTed to its webhook like a reply's call: signed when it has a secret, SSRF-guarded,
 * `webhook-id` the event's id (stable across retries, so the agent can dedupe). The body:
 * `{event: 'feedback', replyId, messageId, score, reason, sessionId, chatId, agentId, userId, companyId,
 * ratedAt}`; `score` null means the rating was taken back. The answer's body is not read.
 */
@Injectable()
export class AgentFeedbackJobHandler {
  private readonly logger = new Logger('AgentFeedback');
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly messageRows: MessagesRepository,
  ) {
    this.allowedHosts = new Set(config.webhookAllowedHosts);
  }

  @JobHandler('agent.feedback')
  async sendFeedback(job: AgentFeedbackJob, meta: JobMeta): Promise<void> {
    const target = await this.messageRows.feedbackTarget(job.replyId);
    // The reply or its chat was deleted, or the agent does not want ratings (or has no webhook).
    if (!target || !target.sendFeedback || target.agentIsDefault || !target.webhook) return;
    const outcome = await postWebhook({
      url: target.webhook,
      body: {
        event: 'feedback',
        replyId: target.replyId,
        messageId: target.messageId,
        score: job.score,
        reason: job.reason,
        sessionId: target.chatId,
        chatId: target.chatId,
        agentId: target.agentIsDefault ? DEFAULT_AGENT_ID : target.agentId,
        userId: target.userId,
        companyId: target.companyId,
        isVoiceMessage: target.isVoiceMessage,
        ratedAt: job.ratedAt,
      },
      id: job.eventId,
      secret: target.signingSecret,
      timeoutMs: this.config.webhookTimeoutMs,
      allowedHosts: this.allowedHosts,
    });
    switch (outcome.kind) {
      case 'ok':
        return;
      case 'http_error':
        if (outcome.status >= 500) return this.retryOrDrop(job, meta, `answered ${outcome.status}`);
        throw new PermanentJobError(`feedback event for ${job.replyId}: answered ${outcome.status}`);
      case 'timeout':
        return this.retryOrDrop(job, meta, 'did not answer in time');
      case 'network_error':
        return this.retryOrDrop(job, meta, `could not be reached (${outcome.message})`);
      case 'too_large':
      case 'refused':
        throw new PermanentJobError(`feedback event for ${job.replyId}: ${outcome.kind}`);
    }
  }

  private retryOrDrop(job: AgentFeedbackJob, meta: JobMeta, reason: string): void {
    const what = `Feedback event for ${job.replyId}, attempt ${meta.attempt}/${meta.maxAttempts}: the agent ${reason}`;
    if (meta.attempt < meta.maxAttempts) {
      this.logger.warn(what);
      throw new RetryableWebhookError(what);
    }
    throw new PermanentJobError(what);
  }
}
