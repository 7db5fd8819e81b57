import { Injectable } from '@nestjs/common';
import { AgentsService, DEFAULT_AGENT_ID } from '../agents/agents.service';
import type { OwnerScope } from '../common/company-scope';
import { GoneError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { AGENT_INACTIVE, CHAT_ARCHIVED, ChatsService } from '../chats/chats.service';
import { ReplyFeedbackService } from '../chats/feedback/reply-feedback.service';
import type { MessageFeedback, MessageView } from '../contracts/chats';
import type { SaveVoiceTurnRequest, StartVoiceCallResult } from '../contracts/voice';
import { ElevenLabsClient } from './elevenlabs.client';
import { VoiceCallsRepository } from './voice-calls.repository';

/** The spec's rule (section 5), as the refusal a person reads. */
export const VOICE_AGENT_ID_REQUIRED = 'The voice agent id is required to enable voice calls';
export const CHAT_OF_ANOTHER_AGENT = 'This chat is with another agent.';
export const VOICE_CALL_NOT_FOUND = 'Voice call not found. Start a call to save its transcript.';
export const VOICE_CALL_OTHER_CHAT = "This voice call's transcript belongs to another chat.";
export const VOICE_CALL_ENDED = 'This voice call has ended: its transcript can no longer be saved.';

/**
 * How long a call's transcript turns are taken: the longest call (the provider's maximum duration, an
 * hour at most) and a grace for the last turns' saves and retries.
 */
export const VOICE_CALL_LIFETIME_MS = 60 * 60_000 + 5 * 60_000;
/** After the call ends, turns still being saved may arrive this long. */
export const VOICE_CALL_END_GRACE_MS = 30_000;

/**
 * Voice calls: the api checks who may call which agent and issues the connection; the browser talks to
 * the provider; each final transcript turn comes back here and is stored in the chat like a message.
 */
@Injectable()
export class VoiceService {
  constructor(
    private readonly agents: AgentsService,
    private readonly chats: ChatsService,
    private readonly provider: ElevenLabsClient,
    private readonly calls: VoiceCallsRepository,
    private readonly feedback: ReplyFeedbackService,
  ) {}

  /**
   * A call with one of the user's agents in this company that is active and has a voice agent id, into
   * the chat on screen (which must be with that agent) or, with none, into a new 'Chat with {agent}',
   * made only once the provider has issued the connection (a failed start leaves no empty chat).
   */
  async start(scope: OwnerScope, agentId: string, chatId?: string): Promise<StartVoiceCallResult> {
    const agent = await this.agents.resolve(scope, agentId);
    const publicAgentId = agent.isDefault ? DEFAULT_AGENT_ID : agent.id;
    if (!agent.isActive) throw new ValidationFailedError(AGENT_INACTIVE);
    if (!agent.elevenlabsAgentId) throw new ValidationFailedError(VOICE_AGENT_ID_REQUIRED);
    if (chatId) {
      const chat = await this.chats.get(scope, chatId);
      if (chat.agentId !== publicAgentId) throw new ValidationFailedError(CHAT_OF_ANOTHER_AGENT);
      if (chat.isArchived) throw new ValidationFailedError(CHAT_ARCHIVED);
      const connection = await this.provider.connectionFor(agent.elevenlabsAgentId);
      const callId = await this.calls.create(scope, chat.id, publicAgentId, VOICE_CALL_LIFETIME_MS);
      return { chat, chatCreated: false, connection, callId };
    }
    const connection = await this.provider.connectionFor(agent.elevenlabsAgentId);
    const chat = await this.chats.create(scope, publicAgentId);
    const callId = await this.calls.create(scope, chat.id, publicAgentId, VOICE_CALL_LIFETIME_MS);
    return { chat, chatCreated: true, connection, callId };
  }

  /**
   * One final transcript turn, under a call this api started for this user in this company, into that
   * call's chat, while the call lasts; the provider's ids make saving it again a no-op.
   */
  async saveTurn(scope: OwnerScope, turn: SaveVoiceTurnRequest): Promise<MessageView> {
    const call = await this.calls.find(scope, turn.callId);
    if (!call) throw new NotFoundError(VOICE_CALL_NOT_FOUND);
    if (call.chatId !== turn.chatId) throw new ValidationFailedError(VOICE_CALL_OTHER_CHAT);
    if (call.expired) throw new GoneError(VOICE_CALL_ENDED);
    return this.chats.storeVoiceTurn(scope, turn.chatId, {
      role: turn.role,
      text: turn.text,
      voiceEventId: `${turn.conversationId}:${turn.eventId}`,
    });
  }

  /** The call is over (the browser says so): no turn is taken after a short grace. */
  async end(scope: OwnerScope, callId: string): Promise<void> {
    if (!(await this.calls.end(scope, callId, VOICE_CALL_END_GRACE_MS)))
      throw new NotFoundError(VOICE_CALL_NOT_FOUND);
  }

  setFeedback(scope: OwnerScope, messageId: string, score: MessageFeedback | null): Promise<MessageView> {
    return this.feedback.rate(scope, messageId, { score }, { voiceOnly: true });
  }
}
