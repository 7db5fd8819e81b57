import { useMemo } from 'react';
import type { AgentView, MessageFeedback, MessageView } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { useChatStore } from '../../../stores/chatStore';
import { endVoiceCall, rateVoiceTurn, startVoiceCall, type VoiceNotifier } from '../voiceSession';

export interface VoiceCallActions {
  /** Starts a call with the agent into this chat (null: a new 'Chat with {agent}'). */
  startCall: (agent: AgentView, chatId: string | null) => Promise<void>;
  endCall: () => Promise<void>;
  /** Like, dislike or (null) take back the rating of an agent's voice turn. */
  rate: (message: MessageView, score: MessageFeedback | null) => Promise<boolean>;
}

/** The voice call's actions, reporting with the spec's toasts. */
export function useVoiceCall(): VoiceCallActions {
  const toasts = useActionToasts();
  return useMemo(() => {
    const notify: VoiceNotifier = { success: toasts.success, error: toasts.refusal };
    return {
      startCall: (agent, chatId) => startVoiceCall(agent, chatId, notify),
      endCall: () => endVoiceCall(),
      async rate(message, score) {
        const companyId = useChatStore.getState().companyId;
        if (!companyId) return false;
        return rateVoiceTurn(companyId, message, score, notify);
      },
    };
  }, [toasts]);
}
