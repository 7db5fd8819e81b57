import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { OwnerScope } from '../../common/company-scope';
import { NotFoundError, ValidationFailedError } from '../../common/domain-errors';
import type { MessageFeedback } from '../../contracts/chats';
import { JobQueue } from '../../queue/job-queue';
import type { MessageView } from '../../realtime/client-events';
import { RealtimePublisher } from '../../realtime/realtime-publisher';
import { CHAT_ARCHIVED, MESSAGE_NOT_FOUND, ONLY_AGENT_VOICE_TURNS_RATED } from '../chats.service';
import { AGENT_REPLY_ATTEMPTS } from '../jobs/agent-reply.constants';
import { MessagesRepository } from '../messages.repository';
import { InsightsTicker } from '../../insights/insights-recorder';

export const ONLY_AGENT_REPLIES_RATED = "Only the agent's replies can be rated.";

/**
 * Ratings of agent replies (text and voice turns): stored on the reply, pushed to the owner's other
 * tabs, and told to the agent when it asked to be (a `feedback` event through the job queue).
 */
@Injectable()
export class ReplyFeedbackService {
  private readonly logger = new Logger('ReplyFeedback');

  constructor(
    private readonly messageRows: MessagesRepository,
    private readonly realtime: RealtimePublisher,
    private readonly queue: JobQueue,
    private readonly insights: InsightsTicker,
  ) {}

  /**
   * Rates a reply in one of the owner's chats (null takes the rating back). The reason is kept with a
   * dislike only, trimmed; an empty one is none. An archived chat is read-only.
   */
  async rate(
    scope: OwnerScope,
    messageId: string,
    input: { score: MessageFeedback | null; reason?: string | null },
    options: { voiceOnly?: boolean } = {},
  ): Promise<MessageView> {
    const reason = input.score === 'dislike' ? input.reason?.trim() || null : null;
    const voiceOnly = options.voiceOnly ?? false;
    const rated = await this.messageRows.rateReply(scope, messageId, {
      score: input.score,
      reason,
      voiceOnly,
    });
    if (!rated) throw await this.refusal(scope, messageId, voiceOnly);
    const { userId, companyId } = scope;
    // The user's other tabs and devices show the rating too.
    this.realtime.toUser(userId, 'message.updated', { companyId, chatId: rated.chatId, message: rated });
    this.insights.touch(companyId);
    await this.tellAgent(rated.id, input.score, reason);
    return rated;
  }

  private async refusal(scope: OwnerScope, messageId: string, voiceOnly: boolean): Promise<Error> {
    const found = await this.messageRows.ratingRefusal(scope, messageId);
    if (!found) return new NotFoundError(MESSAGE_NOT_FOUND);
    if (found.senderType !== 'agent') return new ValidationFailedError(ONLY_AGENT_REPLIES_RATED);
    if (voiceOnly && !found.isVoiceMessage) return new ValidationFailedError(ONLY_AGENT_VOICE_TURNS_RATED);
    return new ValidationFailedError(CHAT_ARCHIVED);
  }

  /**
   * Queues the `feedback` event; the job checks whether the agent opted in (its setting as it is when
   * the event goes). A queue that is down loses the event, never the rating: the rating is stored.
   */
  private async tellAgent(replyId: string, score: MessageFeedback | null, reason: string | null) {
    const eventId = randomUUID();
    try {
      await this.queue.enqueue(
        'agent.feedback',
        { eventId, replyId, score, reason, ratedAt: new Date().toISOString() },
        { jobId: `feedback-${eventId}`, attempts: AGENT_REPLY_ATTEMPTS },
      );
    } catch (error) {
      this.logger.warn(`Could not queue the feedback event for ${replyId}: ${String(error)}`);
    }
  }
}
