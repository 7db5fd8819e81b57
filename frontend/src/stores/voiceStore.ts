import { create } from 'zustand';

/** The call as the user sees it (spec section 4): inactive → loading → active → ended. */
export type VoiceCallStatus = 'inactive' | 'loading' | 'active' | 'ended';
/** The provider session underneath: connecting, connected, disconnecting, disconnected. */
export type VoiceSessionStatus = 'connecting' | 'connected' | 'disconnecting' | 'disconnected';
/** Whether the agent is talking (the call button turns green) or listening. */
export type VoiceMode = 'listening' | 'speaking';

interface VoiceState {
  status: VoiceCallStatus;
  sessionStatus: VoiceSessionStatus;
  mode: VoiceMode;
  /** The company, agent and chat of the call (one call at a time). */
  companyId: string | null;
  agentId: string | null;
  chatId: string | null;
  /** The agent's tentative response: a live caption, never saved. */
  caption: string | null;

  starting: (companyId: string, agentId: string) => void;
  setChat: (chatId: string) => void;
  connected: () => void;
  setSessionStatus: (status: VoiceSessionStatus) => void;
  setMode: (mode: VoiceMode) => void;
  setCaption: (caption: string | null) => void;
  /** The call is over (ended by someone, or failed once connected). */
  ended: () => void;
  /** The call never started. */
  reset: () => void;
}

const idle = {
  sessionStatus: 'disconnected' as const,
  mode: 'listening' as const,
  companyId: null,
  agentId: null,
  chatId: null,
  caption: null,
};

export const useVoiceStore = create<VoiceState>((set) => ({
  status: 'inactive',
  ...idle,

  starting: (companyId, agentId) =>
    set({ ...idle, status: 'loading', sessionStatus: 'connecting', companyId, agentId }),
  setChat: (chatId) => set({ chatId }),
  connected: () => set({ status: 'active', sessionStatus: 'connected' }),
  setSessionStatus: (sessionStatus) => set({ sessionStatus }),
  setMode: (mode) => set({ mode }),
  setCaption: (caption) => set({ caption }),
  ended: () => set({ ...idle, status: 'ended' }),
  reset: () => set({ ...idle, status: 'inactive' }),
}));

/** A call is under way (starting or connected): the text webhook is off for its chat. */
export function isCallLive(status: VoiceCallStatus): boolean {
  return status === 'loading' || status === 'active';
}
