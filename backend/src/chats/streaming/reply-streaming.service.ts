import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../../common/company-scope';
import type { StopReplyResult } from '../../contracts/chats';
import { recordAgentReply, recordReplies } from '../../metrics/metrics';
import { RealtimePublisher } from '../../realtime/realtime-publisher';
import { InsightsTicker } from '../../insights/insights-recorder';
import { ChatsService } from '../chats.service';
import type { ReplyInterruption } from '../message.entity';
import { MessagesRepository, type ReplyTarget } from '../messages.repository';
import { ReplyStopBus, type StopSignal } from './reply-stop.bus';
import { ReplyStreamStore } from './reply-stream.store';

/**
 * One attempt at a streamed reply, as the job sees it: each piece of text is kept where every api node
 * can read it, then pushed to the user's tabs as `message.delta`, in order. Pieces that come while the
 * previous one is still being kept go out together (fewer events under a fast stream, same text).
 */
export class ReplyStream {
  private sent = 0;
  private waiting = '';
  private sending: Promise<void> = Promise.resolve();
  private busy = false;
  /** The text so far is kept from the first piece on: a classic answer costs no store round trip. */
  private started = false;
  /** The tool the agent is using, as last told to the tabs. */
  private activity: string | null = null;
  /** Date.now() when the first piece of text came (the Insights' time to first chunk); null before. */
  firstChunkAt: number | null = null;

  constructor(
    private readonly target: ReplyTarget & { messageId: string },
    private readonly store: ReplyStreamStore,
    private readonly realtime: RealtimePublisher,
    /** Aborted by Stop, wherever it was pressed. */
    readonly signal: StopSignal,
    private readonly release: () => void,
    /** Date.now() from which nothing more is kept or sent (a callback's deadline); none when absent. */
    private readonly until = Infinity,
  ) {}

  push(text: string): void {
    if (this.over()) return;
    this.firstChunkAt ??= Date.now();
    this.waiting += text;
    if (!this.busy) this.sending = this.send();
  }

  /** Every piece pushed so far is kept and sent. */
  async flush(): Promise<void> {
    while (this.busy || this.waiting) await (this.busy ? this.sending : (this.sending = this.send()));
  }

  /**
   * The attempt ends without its text (a callback's deadline passed): what waits is dropped, and once
   * this resolves no more of it reaches a tab (a piece being kept meanwhile is not sent: `until`).
   */
  async cut(): Promise<void> {
    this.waiting = '';
    await this.sending;
  }

  /**
   * The agent started using a tool (its name) or finished one (null): told to the user's tabs at once
   * as `agent.activity`, shown under the typing indicator; never part of the reply's text. Repeats of
   * the same status are not sent again.
   */
  tool(tool: string | null): void {
    if (this.over() || tool === this.activity) return;
    this.activity = tool;
    const { chatId, messageId, userId, companyId } = this.target;
    this.realtime.toUser(userId, 'agent.activity', { companyId, chatId, messageId, tool });
  }

  private over(): boolean {
    return Date.now() >= this.until;
  }

  /** The attempt is over (after its reply is stored, failed or stopped). */
  async close(): Promise<void> {
    this.release();
    await this.flush();
    if (this.started) await this.store.clear(this.target.chatId, this.target.messageId);
  }

  private async send(): Promise<void> {
    this.busy = true;
    try {
      while (this.waiting && !this.over()) {
        const text = this.waiting;
        this.waiting = '';
        const { chatId, messageId, userId, companyId } = this.target;
        if (!this.started) {
          // What an earlier attempt (a crashed worker's) left is replaced.
          await this.store.begin(chatId, messageId);
          this.started = true;
        }
        await this.store.append(chatId, messageId, text);
        // Checked again after the round trip: a deadline that passed meanwhile wins over the piece.
        if (this.over()) break;
        this.realtime.toUser(userId, 'message.delta', {
          companyId,
          chatId,
          messageId,
          text,
          offset: this.sent,
        });
        this.sent += text.length;
      }
      if (this.over()) this.waiting = '';
    } finally {
      this.busy = false;
    }
  }
}

/** Streamed replies: their text so far, their end, and Stop. */
@Injectable()
export class ReplyStreamingService {
  constructor(
    private readonly store: ReplyStreamStore,
    private readonly stopBus: ReplyStopBus,
    private readonly messageRows: MessagesRepository,
    private readonly chats: ChatsService,
    private readonly realtime: RealtimePublisher,
    private readonly insights: InsightsTicker,
  ) {}

  /**
   * A reply job (or a streamed callback) starts answering `messageId`. `until`: Date.now() from which
   * none of its text is kept or sent any more (a callback's deadline).
   */
  open(target: ReplyTarget & { messageId: string }, options: { until?: number } = {}): ReplyStream {
    const { signal, release } = this.stopBus.register(target.messageId);
    return new ReplyStream(target, this.store, this.realtime, signal, release, options.until);
  }

  /** Stores what came of a reply cut short, marked with why (at most once, like every reply). */
  async storeInterrupted(
    messageId: string,
    text: string,
    interrupted: ReplyInterruption,
    /** With 'error': the agent's message, shown with the note. */
    reason: string | null = null,
    /** The round cut short (a job's or a callback's); null: whichever is pending (Stop). */
    round: number | null = null,
  ): Promise<void> {
    const stored = await this.messageRows.storeReply(messageId, text, interrupted, reason, text, round);
    if (!stored) return;
    recordReplies('replied');
    const { userId, companyId, message, chat } = stored;
    recordAgentReply(companyId, chat.agentId, 'replied');
    this.realtime.toUser(userId, 'message.created', { companyId, chatId: chat.id, message, chat });
    this.realtime.toUser(userId, 'agent.typing', { companyId, chatId: chat.id, typing: false });
    this.insights.touch(companyId);
  }

  /**
   * Stop: the owner ends the chat's pending reply. The webhook call is aborted wherever its job runs;
   * the text shown so far is stored, marked stopped; with none yet, nothing is stored and the chat
   * takes messages again. A job still queued (or waiting to retry) then finds nothing to answer.
   */
  async stop(scope: OwnerScope, chatId: string): Promise<StopReplyResult> {
    await this.chats.get(scope, chatId);
    const messageId = await this.messageRows.pendingReplyOfChat(chatId);
    if (!messageId) return { stopped: false };
    await this.stopBus.stop(messageId);
    const partial = await this.store.read(chatId);
    const text = partial?.messageId === messageId ? partial.text : '';
    if (text.trim()) {
      await this.storeInterrupted(messageId, text, 'stopped');
    } else {
      for (const row of await this.messageRows.markReplySkipped(messageId)) {
        this.realtime.toUser(row.userId, 'agent.typing', {
          companyId: row.companyId,
          chatId: row.chatId,
          typing: false,
        });
      }
    }
    await this.store.clear(chatId, messageId);
    return { stopped: true };
  }
}
