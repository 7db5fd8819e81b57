import { Injectable } from '@nestjs/common';
import { AgentsService, DEFAULT_AGENT_ID } from '../agents/agents.service';
import type { OwnerScope } from '../common/company-scope';
import { ValidationFailedError } from '../common/domain-errors';
import { AGENT_INACTIVE, CHAT_ARCHIVED, ChatsService } from '../chats/chats.service';
import type { MessageFeedback, MessageView } from '../contracts/chats';
import type { SaveVoiceTurnRequest, StartVoiceCallResult } from '../contracts/voice';
import { ElevenLabsClient } from './elevenlabs.client';

/** The spec's rule (section 5), as the refusal a person reads. */
export const VOICE_AGENT_ID_REQUIRED = 'The voice agent id is required to enable voice calls';
export const CHAT_OF_ANOTHER_AGENT = 'This chat is with another agent.';

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
      return { chat, chatCreated: false, connection };
    }
    const connection = await this.provider.connectionFor(agent.elevenlabsAgentId);
    const chat = await this.chats.create(scope, publicAgentId);
    return { chat, chatCreated: true, connection };
  }

  /** One final transcript turn; the provider's ids make saving it again a no-op. */
  saveTurn(scope: OwnerScope, turn: SaveVoiceTurnRequest): Promise<MessageView> {
    return this.chats.storeVoiceTurn(scope, turn.chatId, {
      role: turn.role,
      text: turn.text,
      voiceEventId: `${turn.conversationId}:${turn.eventId}`,
    });
  }

  setFeedback(scope: OwnerScope, messageId: string, score: MessageFeedback | null): Promise<MessageView> {
    return this.chats.setVoiceFeedback(scope, messageId, score);
  }
}
