import { isCallChat, sendTextIntoCall, signalTyping } from '../voiceSession';
import { useVoiceStore } from '../../../stores/voiceStore';

export interface CallAwareInput {
  /** Text goes into the call while one is connected for this chat, else to `send` (the webhook). */
  onSend: (text: string) => Promise<boolean>;
  /** Typing during a call tells the agent (user_activity); nothing otherwise. */
  onTyping?: () => void;
  inCall: boolean;
}

/** Spec: starting a call turns the text webhook off; ending it turns it back on. */
export function useCallAwareInput(
  chatId: string | null,
  send: (text: string) => Promise<boolean>,
): CallAwareInput {
  // Subscribed so that the input switches the moment the call starts or ends.
  const inCall = useVoiceStore((s) => s.status === 'active' && s.chatId !== null && s.chatId === chatId);
  if (!inCall) return { onSend: send, inCall: false };
  return {
    onSend: (text) => (isCallChat(chatId) ? sendTextIntoCall(text) : send(text)),
    onTyping: signalTyping,
    inCall: true,
  };
}
