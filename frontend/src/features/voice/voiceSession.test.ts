import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageView, StartVoiceCallResult } from '../../api/contracts';
import { ApiError } from '../../api/errors';
import { voiceApi } from '../../api/voiceApi';
import { agentView, chatView, messageView, userView } from '../../test/fixtures';
import { useSessionStore } from '../../stores/sessionStore';
import { useChatStore } from '../../stores/chatStore';
import { useCompanyStore } from '../../stores/companyStore';
import type { VoiceCallbacks } from './voiceEngine';
import {
  CALL_ENDED,
  CALL_ENDED_DETAIL,
  CALL_ERROR,
  CALL_STARTED,
  CALL_STARTED_DETAIL,
  endVoiceCall,
  isCallChat,
  MICROPHONE_REQUIRED,
  sendTextIntoCall,
  START_ERROR,
  startVoiceCall,
} from './voiceSession';
import { useVoiceStore } from '../../stores/voiceStore';

const engine = vi.hoisted(() => ({
  callbacks: null as VoiceCallbacks | null,
  dynamicVariables: null as Record<string, string> | null,
  session: null as null | {
    getId: () => string;
    isOpen: () => boolean;
    endSession: () => Promise<void>;
    sendUserMessage: (text: string) => void;
    sendUserActivity: () => void;
    sendFeedback: (like: boolean, eventId: number) => void;
  },
}));

vi.mock('./voiceEngine', () => ({
  openVoiceSession: vi.fn(
    (_connection: unknown, variables: Record<string, string>, callbacks: VoiceCallbacks) => {
      engine.callbacks = callbacks;
      engine.dynamicVariables = variables;
      let open = true;
      engine.session = {
        getId: () => 'conv_1',
        isOpen: () => open,
        endSession: vi.fn(() => {
          open = false;
          callbacks.onDisconnect?.({ reason: 'user' });
          return Promise.resolve();
        }),
        sendUserMessage: vi.fn(),
        sendUserActivity: vi.fn(),
        sendFeedback: vi.fn(),
      };
      callbacks.onConversationCreated?.(engine.session as never);
      return Promise.resolve(engine.session);
    },
  ),
}));

const agent = agentView({ id: 'agent-1', name: 'Voice Agent', elevenlabsAgentId: 'voice_1' });
const chat = chatView({ id: 'chat-9', agentId: 'agent-1', title: 'Chat with Voice Agent' });
const started: StartVoiceCallResult = {
  chat,
  chatCreated: true,
  connection: { mode: 'signed', signedUrl: 'wss://voice.example/v1/convai/conversation?agent_id=voice_1' },
  callId: 'call-7',
};

function notifier() {
  return { success: vi.fn(), error: vi.fn() };
}

function microphone(result: 'granted' | 'refused') {
  const getUserMedia = vi.fn(() =>
    result === 'granted'
      ? Promise.resolve({ getTracks: () => [{ stop: vi.fn() }] } as unknown as MediaStream)
      : Promise.reject(new DOMException('Permission denied', 'NotAllowedError')),
  );
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  return getUserMedia;
}

describe('voice calls (client side)', () => {
  beforeEach(() => {
    useSessionStore.setState({
      status: 'authenticated',
      user: userView({ firstName: 'Ada', name: 'Ada Lovelace' }),
    });
    useCompanyStore
      .getState()
      .setCompanies([
        { id: 'c1', name: 'Analytical Engines', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
      ]);
    useCompanyStore.getState().setCurrentCompany('c1');
    useChatStore.getState().reset('c1');
    useVoiceStore.getState().reset();
    vi.spyOn(voiceApi, 'end').mockResolvedValue(undefined);
  });
  afterEach(async () => {
    await endVoiceCall();
    useCompanyStore.getState().reset();
    useChatStore.getState().reset(null);
    useSessionStore.setState({ status: 'idle', user: null });
  });

  it('refused microphone: a clear message, no call asked of the api, nothing half-open', async () => {
    microphone('refused');
    const start = vi.spyOn(voiceApi, 'start');
    const notify = notifier();
    await startVoiceCall(agent, null, notify);
    expect(notify.error).toHaveBeenCalledWith(START_ERROR, MICROPHONE_REQUIRED);
    expect(start).not.toHaveBeenCalled();
    expect(useVoiceStore.getState().status).toBe('inactive');
    expect(useChatStore.getState().activeChats).toEqual([]);
  });

  it('shows the voice provider failure the api reports', async () => {
    microphone('granted');
    vi.spyOn(voiceApi, 'start').mockRejectedValue(
      new ApiError('http', 502, {
        statusCode: 502,
        error: 'SERVER_ERROR',
        message: 'The voice service is down.',
      }),
    );
    const notify = notifier();
    await startVoiceCall(agent, null, notify);
    expect(notify.error).toHaveBeenCalledWith(START_ERROR, 'The voice service is down.');
    expect(useVoiceStore.getState().status).toBe('inactive');
  });

  it('starts into a new chat with the dynamic variables, saves final turns and routes typed text into the call', async () => {
    microphone('granted');
    vi.spyOn(voiceApi, 'start').mockResolvedValue(started);
    const saved: MessageView[] = [];
    const saveTurn = vi.spyOn(voiceApi, 'saveTurn').mockImplementation((_c, turn) => {
      const message = messageView({
        id: `m-${saved.length + 1}`,
        chatId: turn.chatId,
        senderType: turn.role,
        content: turn.text,
        isVoiceMessage: true,
        seq: String(saved.length + 1),
      });
      saved.push(message);
      return Promise.resolve(message);
    });
    const notify = notifier();

    await startVoiceCall(agent, null, notify);

    expect(voiceApi.start).toHaveBeenCalledWith('c1', { agentId: 'agent-1', chatId: undefined });
    expect(engine.dynamicVariables).toEqual({
      user_first_name: 'Ada',
      company_name: 'Analytical Engines',
      chat_id: 'chat-9',
    });
    expect(notify.success).toHaveBeenCalledWith(CALL_STARTED, CALL_STARTED_DETAIL);
    expect(useVoiceStore.getState()).toMatchObject({ status: 'active', chatId: 'chat-9' });
    expect(useChatStore.getState().activeChatId).toBe('chat-9');
    expect(isCallChat('chat-9')).toBe(true);

    // A tentative response is a caption only; the final turn is saved and shown.
    engine.callbacks?.onDebug?.({ type: 'tentative_agent_response', response: 'Hel' });
    expect(useVoiceStore.getState().caption).toBe('Hel');
    engine.callbacks?.onMessage?.({ role: 'agent', source: 'ai', message: 'Hello Ada', event_id: 3 });
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    // Each turn names the call the api issued.
    expect(saveTurn).toHaveBeenCalledWith('c1', {
      callId: 'call-7',
      chatId: 'chat-9',
      role: 'agent',
      text: 'Hello Ada',
      conversationId: 'conv_1',
      eventId: '3',
    });
    expect(useVoiceStore.getState().caption).toBeNull();
    expect(useChatStore.getState().messages['chat-9']?.items.map((m) => m.content)).toEqual(['Hello Ada']);

    expect(await sendTextIntoCall('typed into the call')).toBe(true);
    expect(engine.session?.sendUserMessage).toHaveBeenCalledWith('typed into the call');
    expect(saveTurn).toHaveBeenLastCalledWith(
      'c1',
      expect.objectContaining({
        callId: 'call-7',
        role: 'user',
        text: 'typed into the call',
        eventId: expect.stringMatching(/^typed-/),
      }),
    );

    await endVoiceCall();
    expect(notify.success).toHaveBeenCalledWith(CALL_ENDED, CALL_ENDED_DETAIL);
    // The api is told: the call's transcript closes after a short grace.
    expect(voiceApi.end).toHaveBeenCalledWith('c1', 'call-7');
    expect(useVoiceStore.getState().status).toBe('ended');
    expect(isCallChat('chat-9')).toBe(false);
  });

  it("a server close shows the server's reason", async () => {
    microphone('granted');
    vi.spyOn(voiceApi, 'start').mockResolvedValue({ ...started, chatCreated: false });
    const notify = notifier();
    await startVoiceCall(agent, 'chat-9', notify);
    engine.callbacks?.onDisconnect?.({
      reason: 'error',
      message: 'Quota exceeded for this agent',
      context: { type: 'close', code: 4001 },
    });
    expect(notify.error).toHaveBeenCalledWith(CALL_ERROR, 'Quota exceeded for this agent');
    expect(useVoiceStore.getState().status).toBe('ended');
  });

  it('leaving the company ends the call', async () => {
    microphone('granted');
    vi.spyOn(voiceApi, 'start').mockResolvedValue(started);
    await startVoiceCall(agent, null, notifier());
    useCompanyStore.getState().setCompanies([
      { id: 'c1', name: 'Analytical Engines', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
      { id: 'c2', name: 'Other', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
    ]);
    useCompanyStore.getState().setCurrentCompany('c2');
    await vi.waitFor(() => expect(engine.session?.endSession).toHaveBeenCalled());
    expect(useVoiceStore.getState().status).toBe('ended');
  });
});
