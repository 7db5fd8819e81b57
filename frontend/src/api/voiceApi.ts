import { inCompany } from './companyScope';
import type {
  MessageFeedback,
  MessageView,
  SaveVoiceTurnRequest,
  StartVoiceCallRequest,
  StartVoiceCallResult,
} from './contracts';
import { http } from './httpClient';

export const voiceApi = {
  /** The connection for a call (and the chat it goes to: a new one when no chatId is given). */
  start: (companyId: string, request: StartVoiceCallRequest) =>
    http.post<StartVoiceCallResult>('/api/voice/sessions', request, inCompany(companyId)),
  /** The call is over: the api takes its transcript's last turns for a short grace, then none. */
  end: (companyId: string, callId: string) =>
    http.post<void>(`/api/voice/sessions/${encodeURIComponent(callId)}/end`, {}, inCompany(companyId)),
  /** One final transcript turn of a call; saving the same turn again returns the message already stored. */
  saveTurn: (companyId: string, turn: SaveVoiceTurnRequest) =>
    http.post<MessageView>('/api/voice/transcripts', turn, inCompany(companyId)),
  rate: (companyId: string, messageId: string, score: MessageFeedback | null) =>
    http.request<MessageView>(
      'PUT',
      `/api/voice/messages/${encodeURIComponent(messageId)}/feedback`,
      inCompany(companyId, { body: { score } }),
    ),
};
