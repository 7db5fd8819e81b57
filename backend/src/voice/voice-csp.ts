import type { AppConfig } from '../config/app-config';

/** The websocket origin matching an http(s) origin (http → ws, https → wss). */
function socketOrigin(httpOrigin: string): string {
  const url = new URL(httpOrigin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.origin;
}

/**
 * The CSP's connect-src: our own origin (the API, and Socket.IO, also named as ws(s): for browsers whose
 * 'self' does not cover websockets) and exactly one voice origin, the configured ElevenLabs websocket.
 * The browser never calls the provider's REST API: the api fetches signed URLs itself.
 */
export function connectSources(config: Pick<AppConfig, 'appOrigin' | 'elevenlabs'>): string[] {
  const sources = ["'self'", socketOrigin(config.appOrigin), new URL(config.elevenlabs.wsUrl).origin];
  return [...new Set(sources)];
}
