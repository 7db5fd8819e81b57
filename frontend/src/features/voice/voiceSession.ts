import { ApiError, getErrorMessage } from '../../api/errors';
import type { AgentView, MessageFeedback, MessageView, VoiceTurnRole } from '../../api/contracts';
import { voiceApi } from '../../api/voiceApi';
import { useSessionStore } from '../../stores/sessionStore';
import { openChat } from '../../workspace/companyData';
import { useChatStore } from '../../stores/chatStore';
import { useCompanyStore } from '../../stores/companyStore';
import type { VoiceSession } from './voiceEngine';
import { isCallLive, useVoiceStore } from '../../stores/voiceStore';

/** How a call reports to the user (the hook passes antd notifications in). */
export interface VoiceNotifier {
  success: (title: string, description?: string) => void;
  error: (title: string, description?: string) => void;
}

// The spec's words (section 8).
export const CALL_STARTED = 'Voice call started';
export const CALL_STARTED_DETAIL = 'You can now speak with the agent';
export const CALL_ENDED = 'Voice call ended';
export const CALL_ENDED_DETAIL = 'The conversation has been terminated';
export const CALL_ERROR = 'Voice call error';
export const START_ERROR = 'Error starting voice call';
export const START_ERROR_FALLBACK = 'Failed to start voice call';
export const END_ERROR = 'Error ending voice call';
export const MICROPHONE_REQUIRED = 'Microphone permission is required for a voice call.';
export const NO_MICROPHONE = 'No microphone was found. A microphone is required for a voice call.';
export const SAVE_ERROR = 'Error saving message';

/** Transcript saves are retried (same provider ids: the server stores a turn once) before giving up. */
const SAVE_ATTEMPTS = 3;
const SAVE_RETRY_MS = 700;
/** user_activity at most this often while the user types into a call. */
const ACTIVITY_EVERY_MS = 1_000;

interface LiveCall {
  session: VoiceSession | null;
  companyId: string;
  /** The call as the api issued it: every transcript turn names it. */
  callId: string;
  chatId: string;
  conversationId: string | null;
  notify: VoiceNotifier;
  /** Agent turns of this conversation: message id → the provider's event id (for feedback). */
  agentTurns: Map<string, number>;
  /** Ends the call when the user leaves the company or signs out. */
  unsubscribe: () => void;
  lastActivity: number;
}

let live: LiveCall | null = null;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The microphone is asked for before anything else: refused, no chat is made and no socket opened. */
async function checkMicrophone(): Promise<string | null> {
  if (!navigator.mediaDevices?.getUserMedia) return MICROPHONE_REQUIRED;
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    return null;
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name === 'NotFoundError' || name === 'OverconstrainedError') return NO_MICROPHONE;
    return MICROPHONE_REQUIRED;
  }
}

/** What the provider or our api said, in words a person reads; provider failures (502/503) included. */
function startFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'http' && error.status >= 500 && error.serverMessage)
    return error.serverMessage;
  if (error instanceof DOMException && error.name === 'NotAllowedError') return MICROPHONE_REQUIRED;
  if (error instanceof ApiError || error instanceof TypeError)
    return getErrorMessage(error, START_ERROR_FALLBACK);
  if (error instanceof Error && error.message.trim()) return error.message;
  return START_ERROR_FALLBACK;
}

function firstName(): string {
  const user = useSessionStore.getState().user;
  return user?.firstName || user?.name.split(' ')[0] || '';
}

function companyName(companyId: string): string {
  return useCompanyStore.getState().companies.find((c) => c.id === companyId)?.name ?? '';
}

/** The chat screen shows what the api stored, if the user is still in that company. */
function showMessage(companyId: string, message: MessageView): void {
  if (useChatStore.getState().companyId === companyId) useChatStore.getState().addMessage(message);
}

async function saveTurn(
  call: LiveCall,
  role: VoiceTurnRole,
  text: string,
  eventId: string,
): Promise<MessageView | null> {
  const content = text.trim();
  if (!content || !call.conversationId) return null;
  const turn = {
    callId: call.callId,
    chatId: call.chatId,
    role,
    text: content,
    conversationId: call.conversationId,
    eventId,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const message = await voiceApi.saveTurn(call.companyId, turn);
      showMessage(call.companyId, message);
      return message;
    } catch (error) {
      const retryable = !(error instanceof ApiError) || error.isTransient;
      if (!retryable || attempt >= SAVE_ATTEMPTS) {
        call.notify.error(SAVE_ERROR, getErrorMessage(error));
        return null;
      }
      await sleep(SAVE_RETRY_MS * attempt);
    }
  }
}

function finish(call: LiveCall): void {
  call.unsubscribe();
  if (live === call) live = null;
  useVoiceStore.getState().ended();
  // Turns still being saved are taken for a short grace; a failure here only leaves the call to expire.
  voiceApi.end(call.companyId, call.callId).catch(() => undefined);
}

/** Ends the call (the user's choice, a company switch, signing out); the disconnect callback reports it. */
export async function endVoiceCall(): Promise<void> {
  const call = live;
  if (!call?.session) return;
  useVoiceStore.getState().setSessionStatus('disconnecting');
  try {
    await call.session.endSession();
  } catch (error) {
    call.notify.error(END_ERROR, error instanceof Error && error.message ? error.message : undefined);
    finish(call);
  }
}

/**
 * Starts a call with `agent` into the chat on screen (or, with none, a new 'Chat with {agent}' the api
 * makes). Order matters: the microphone first (refused: nothing else happens), then the api (who may
 * call whom, and where to connect), then the provider's socket with the dynamic variables.
 */
export async function startVoiceCall(
  agent: AgentView,
  chatId: string | null,
  notify: VoiceNotifier,
): Promise<void> {
  const voice = useVoiceStore.getState();
  if (live || isCallLive(voice.status)) return;
  const companyId = useCompanyStore.getState().currentCompanyId;
  if (!companyId) {
    notify.error('No company selected');
    return;
  }
  voice.starting(companyId, agent.id);

  const microphoneProblem = await checkMicrophone();
  if (microphoneProblem) {
    useVoiceStore.getState().reset();
    notify.error(START_ERROR, microphoneProblem);
    return;
  }

  let call: LiveCall | null = null;
  try {
    const started = await voiceApi.start(companyId, { agentId: agent.id, chatId: chatId ?? undefined });
    const chats = useChatStore.getState();
    if (chats.companyId === companyId) {
      chats.upsertChat(started.chat);
      // A chat made for this call has no messages yet: nothing to fetch.
      if (started.chatCreated && !chats.messages[started.chat.id])
        chats.applyPage(started.chat.id, { messages: [], hasMore: false, pendingReply: false }, 'latest');
      if (started.chatCreated) openChat(started.chat.id, started.chat.agentId);
    }
    useVoiceStore.getState().setChat(started.chat.id);

    call = {
      session: null,
      companyId,
      callId: started.callId,
      chatId: started.chat.id,
      conversationId: null,
      notify,
      agentTurns: new Map(),
      unsubscribe: () => undefined,
      lastActivity: 0,
    };
    live = call;
    const current = call;
    const { openVoiceSession } = await import('./voiceEngine');
    const session = await openVoiceSession(
      started.connection,
      { user_first_name: firstName(), company_name: companyName(companyId), chat_id: started.chat.id },
      {
        onConversationCreated: (created) => {
          current.session = created;
          current.conversationId = created.getId();
        },
        onStatusChange: ({ status }) => useVoiceStore.getState().setSessionStatus(status),
        onModeChange: ({ mode }) => useVoiceStore.getState().setMode(mode),
        onMessage: ({ role, message, event_id }) => {
          const eventId = event_id !== undefined ? String(event_id) : `local-${crypto.randomUUID()}`;
          if (role === 'agent') useVoiceStore.getState().setCaption(null);
          void saveTurn(current, role, message, eventId).then((saved) => {
            if (saved && role === 'agent' && event_id !== undefined)
              current.agentTurns.set(saved.id, event_id);
          });
        },
        onDebug: (info: unknown) => {
          // The tentative agent response: a live caption only, never saved.
          const debug = info as { type?: unknown; response?: unknown };
          if (debug?.type === 'tentative_agent_response' && typeof debug.response === 'string')
            useVoiceStore.getState().setCaption(debug.response);
        },
        onInterruption: () => useVoiceStore.getState().setCaption(null),
        onError: (message: string, context?: unknown) => {
          // An undefined client tool was answered with an error result; the user need not hear of it.
          if (context && typeof context === 'object' && 'clientToolName' in context) return;
          current.notify.error(CALL_ERROR, message);
        },
        onDisconnect: (details) => {
          const wasLive = useVoiceStore.getState().status === 'active';
          finish(current);
          if (details.reason === 'error') current.notify.error(CALL_ERROR, details.message);
          else if (wasLive) current.notify.success(CALL_ENDED, CALL_ENDED_DETAIL);
        },
      },
    );
    current.session = session;
    current.conversationId ??= session.getId();
    if (live !== current || !session.isOpen()) return; // ended while it was being set up
    current.unsubscribe = watchWorkspace(companyId);
    useVoiceStore.getState().connected();
    notify.success(CALL_STARTED, CALL_STARTED_DETAIL);
  } catch (error) {
    if (call) voiceApi.end(call.companyId, call.callId).catch(() => undefined);
    if (call && live === call) live = null;
    useVoiceStore.getState().reset();
    notify.error(START_ERROR, startFailureMessage(error));
  }
}

/** A call belongs to one company and one signed-in user: leaving either ends it. */
function watchWorkspace(companyId: string): () => void {
  const offCompany = useCompanyStore.subscribe((state) => {
    if (state.currentCompanyId !== companyId) void endVoiceCall();
  });
  const offSession = useSessionStore.subscribe((state) => {
    if (state.status !== 'authenticated') void endVoiceCall();
  });
  return () => {
    offCompany();
    offSession();
  };
}

/** True while a connected call's transcript goes to this chat: typed text goes into the call. */
export function isCallChat(chatId: string | null | undefined): boolean {
  return (
    !!chatId && !!live?.session && live.chatId === chatId && useVoiceStore.getState().status === 'active'
  );
}

/** Typed text during a call: sent into the call (not the webhook) and kept in the chat as the user's turn. */
export async function sendTextIntoCall(text: string): Promise<boolean> {
  const call = live;
  if (!call?.session) return false;
  const content = text.trim();
  if (!content) return false;
  call.session.sendUserMessage(content);
  await saveTurn(call, 'user', content, `typed-${crypto.randomUUID()}`);
  return true;
}

/** The user is typing: the agent holds off (user_activity), at most once a second. */
export function signalTyping(): void {
  const call = live;
  if (!call?.session) return;
  const now = Date.now();
  if (now - call.lastActivity < ACTIVITY_EVERY_MS) return;
  call.lastActivity = now;
  call.session.sendUserActivity();
}

/**
 * Rates an agent's voice turn: told to the provider (feedback with the turn's event id) while its call is
 * on, and stored with the message either way. Resolves false when storing failed.
 */
export async function rateVoiceTurn(
  companyId: string,
  message: MessageView,
  score: MessageFeedback | null,
  notify: VoiceNotifier,
): Promise<boolean> {
  const eventId = live?.agentTurns.get(message.id);
  if (score && eventId !== undefined && live?.session?.isOpen())
    live.session.sendFeedback(score === 'like', eventId);
  try {
    const saved = await voiceApi.rate(companyId, message.id, score);
    showMessage(companyId, saved);
    return true;
  } catch (error) {
    notify.error('Error saving feedback', getErrorMessage(error));
    return false;
  }
}
