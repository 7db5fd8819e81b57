/**
 * The voice client, loaded only when a call starts (a dynamic import: the chat screen's chunk does not
 * carry it). ElevenLabs' maintained client in WebSocket mode; its audio worklets and the resampler it
 * may need are bundled as files of our own origin (no blob:, data: or CDN URL: the CSP stays 'self').
 */
import { Conversation, type Callbacks, type Conversation as Session } from '@elevenlabs/client';
import libsamplerateUrl from '@alexanderolsen/libsamplerate-js/dist/libsamplerate.worklet.js?url&no-inline';
import audioConcatProcessorUrl from '@elevenlabs/client/worklets/audioConcatProcessor.js?url&no-inline';
import rawAudioProcessorUrl from '@elevenlabs/client/worklets/rawAudioProcessor.js?url&no-inline';
import type { VoiceConnection } from '../../api/contracts';

export type VoiceSession = Session;
export type VoiceCallbacks = Partial<Callbacks> & {
  /** The session object, as soon as it exists (before any transcript event is delivered). */
  onConversationCreated?: (session: VoiceSession) => void;
};

/** Spec section 9: no connection delay, but 3 s on Android; microphone audio in quarter-second chunks. */
const CONNECTION_DELAY = { default: 0, android: 3000 };
const INPUT_CHUNK_MS = 250;

export async function openVoiceSession(
  connection: VoiceConnection,
  dynamicVariables: Record<string, string>,
  callbacks: VoiceCallbacks,
): Promise<VoiceSession> {
  const where =
    connection.mode === 'signed'
      ? { signedUrl: connection.signedUrl, connectionType: 'websocket' as const }
      : { agentId: connection.agentId, origin: connection.origin, connectionType: 'websocket' as const };
  return Conversation.startSession({
    ...where,
    textOnly: false,
    dynamicVariables,
    // No client tools are defined: the client answers every tool call with an error result.
    clientTools: {},
    useWakeLock: true,
    connectionDelay: CONNECTION_DELAY,
    inputChunkDurationMs: INPUT_CHUNK_MS,
    workletPaths: {
      rawAudioProcessor: rawAudioProcessorUrl,
      audioConcatProcessor: audioConcatProcessorUrl,
    },
    libsampleratePath: libsamplerateUrl,
    ...callbacks,
  });
}
