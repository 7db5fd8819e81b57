import type { ChatView, MessageFeedback } from './chats';

/** POST /api/voice/sessions: start a voice call with an agent that has a voice agent id. */
export interface StartVoiceCallRequest {
  agentId: string;
  /** The chat on screen; left out, the call gets a new 'Chat with {agent}'. */
  chatId?: string;
}

/**
 * Where the browser opens the voice websocket (subprotocol 'convai'): a URL signed by the provider for
 * this call (the api holds the key), or, with no key configured, the public agent's id and the origin.
 */
export type VoiceConnection =
  { mode: 'signed'; signedUrl: string } | { mode: 'public'; agentId: string; origin: string; url: string };

export interface StartVoiceCallResult {
  /** The chat the call's transcript goes to (new when no chatId was given). */
  chat: ChatView;
  chatCreated: boolean;
  connection: VoiceConnection;
  /** This call: its transcript turns name it (POST /api/voice/transcripts), and it ends with it. */
  callId: string;
}

export type VoiceTurnRole = 'user' | 'agent';

/**
 * POST /api/voice/transcripts: one final transcript turn of a call, stored as a voice message. The same
 * (chat, conversationId, eventId) stores nothing new, so a retry never doubles a line.
 */
export interface SaveVoiceTurnRequest {
  /** The call the turn belongs to, as POST /api/voice/sessions issued it (its chat, user and company). */
  callId: string;
  chatId: string;
  role: VoiceTurnRole;
  text: string;
  /** The provider's conversation id (from conversation_initiation_metadata). */
  conversationId: string;
  /** The provider's event id of the turn (a typed message has one made by the client). */
  eventId: string;
}

/** PUT /api/voice/messages/:id/feedback: like, dislike, or null to take the rating back. */
export interface VoiceFeedbackRequest {
  score: MessageFeedback | null;
}
