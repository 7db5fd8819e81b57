import { BadGatewayException, Inject, Injectable, Logger } from '@nestjs/common';
import { ServiceUnavailableError } from './voice.errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { VoiceConnection } from '../contracts/voice';

/** How long the provider has to issue a signed URL before the call start fails. */
const SIGNED_URL_TIMEOUT_MS = 10_000;
/** The conversation endpoint, on the websocket origin (the client appends its own source and version). */
const CONVERSATION_PATH = '/v1/convai/conversation';
const SIGNED_URL_PATH = '/v1/convai/conversation/get-signed-url';

export const PROVIDER_UNREACHABLE = 'The voice service could not be reached. Please try again in a moment.';
export const PROVIDER_BUSY = 'The voice service is busy. Please try again in a moment.';
export const PROVIDER_REFUSED_KEY =
  "The voice service refused the installation's API key. Ask your administrator to check ELEVENLABS_API_KEY.";
export const PROVIDER_UNKNOWN_AGENT =
  "The voice service does not know this voice agent id. Check it in the agent's settings.";
export const PROVIDER_FAILED = 'The voice service could not start the call. Please try again later.';
export const PROVIDER_BAD_ANSWER =
  'The voice service answered with something unexpected. Please try again later.';

/** The provider answered, but not with a call we can start: 502 with a sentence a person can read. */
export class VoiceProviderError extends BadGatewayException {
  constructor(message: string) {
    super(message);
  }
}

/**
 * ElevenLabs Conversational AI, as far as the api is concerned: where a browser opens a call. With
 * ELEVENLABS_API_KEY the api asks the provider for a URL signed for one conversation (the key never
 * leaves this process); without it, public agents are reached by agent id.
 */
@Injectable()
export class ElevenLabsClient {
  private readonly logger = new Logger('Voice');
  private readonly apiKey: string | undefined;
  private readonly apiUrl: string;
  private readonly wsUrl: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.apiKey = config.elevenlabs.apiKey;
    this.apiUrl = config.elevenlabs.apiUrl;
    this.wsUrl = config.elevenlabs.wsUrl;
  }

  /** The browser's connection for one call with this voice agent. */
  async connectionFor(voiceAgentId: string): Promise<VoiceConnection> {
    if (!this.apiKey) {
      const origin = this.wsUrl;
      return {
        mode: 'public',
        agentId: voiceAgentId,
        origin,
        url: `${origin}${CONVERSATION_PATH}?agent_id=${encodeURIComponent(voiceAgentId)}`,
      };
    }
    return { mode: 'signed', signedUrl: await this.signedUrl(this.apiKey, voiceAgentId) };
  }

  private async signedUrl(apiKey: string, voiceAgentId: string): Promise<string> {
    const url = `${this.apiUrl}${SIGNED_URL_PATH}?agent_id=${encodeURIComponent(voiceAgentId)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'xi-api-key': apiKey, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(SIGNED_URL_TIMEOUT_MS),
      });
    } catch (error) {
      this.logger.warn(`signed URL for ${voiceAgentId}: provider unreachable (${describe(error)})`);
      throw new ServiceUnavailableError(PROVIDER_UNREACHABLE);
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) {
      this.logger.warn(`signed URL for ${voiceAgentId}: provider answered ${response.status}`);
      throw providerFailure(response.status);
    }
    const signed = readSignedUrl(body);
    if (!signed || !this.isVoiceOrigin(signed)) {
      this.logger.warn(`signed URL for ${voiceAgentId}: unexpected answer from the provider`);
      throw new VoiceProviderError(PROVIDER_BAD_ANSWER);
    }
    return signed;
  }

  /** Only the configured voice origin: it is the one the CSP lets the browser connect to. */
  private isVoiceOrigin(candidate: string): boolean {
    try {
      return new URL(candidate).origin === new URL(this.wsUrl).origin;
    } catch {
      return false;
    }
  }
}

function providerFailure(status: number): Error {
  if (status === 401 || status === 403) return new VoiceProviderError(PROVIDER_REFUSED_KEY);
  if (status === 400 || status === 404 || status === 422)
    return new VoiceProviderError(PROVIDER_UNKNOWN_AGENT);
  if (status === 429) return new ServiceUnavailableError(PROVIDER_BUSY);
  return new VoiceProviderError(PROVIDER_FAILED);
}

function readSignedUrl(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { signed_url?: unknown };
    return typeof parsed.signed_url === 'string' && parsed.signed_url ? parsed.signed_url : null;
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.name === 'TimeoutError' ? 'timed out' : error.message;
  return String(error);
}
