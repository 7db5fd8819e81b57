import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The ElevenLabs REST endpoint the api calls to start a voice call, as a local server:
 * GET /v1/convai/conversation/get-signed-url?agent_id=... answers a URL signed for one conversation when
 * the `xi-api-key` header holds the expected key, 401 otherwise. `answer` scripts a failure. (The
 * websocket side, which the browser speaks, is e2e/fixtures/fake-convai.ts.)
 */
export interface FakeVoiceProvider {
  /** http://127.0.0.1:PORT: ELEVENLABS_API_URL. */
  apiUrl: string;
  /** ws://127.0.0.1:PORT: ELEVENLABS_WS_URL (the signed URLs it issues are on this origin). */
  wsUrl: string;
  expectedKey: string;
  requests: Array<{ path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }>;
  /** What the next signed-URL requests get: a status, a dropped connection, or a URL on another origin. */
  answer: 'signed' | number | 'drop' | 'foreign-origin' | 'not-json';
  close(): Promise<void>;
}

export const SIGNED_URL_PATH = '/v1/convai/conversation/get-signed-url';

export async function startFakeVoiceProvider(expectedKey: string): Promise<FakeVoiceProvider> {
  let sequence = 0;
  const provider: FakeVoiceProvider = {
    apiUrl: '',
    wsUrl: '',
    expectedKey,
    requests: [],
    answer: 'signed',
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    provider.requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    if (url.pathname !== SIGNED_URL_PATH || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'not found' }));
      return;
    }
    if (provider.answer === 'drop') {
      req.socket.destroy();
      return;
    }
    if (typeof provider.answer === 'number') {
      res.writeHead(provider.answer, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { status: 'scripted', message: 'scripted failure' } }));
      return;
    }
    if (req.headers['xi-api-key'] !== provider.expectedKey) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { status: 'invalid_api_key', message: 'Invalid API key' } }));
      return;
    }
    const agentId = url.searchParams.get('agent_id') ?? '';
    sequence += 1;
    const origin = provider.answer === 'foreign-origin' ? 'wss://elsewhere.example' : provider.wsUrl;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      provider.answer === 'not-json'
        ? 'signed!'
        : JSON.stringify({
            signed_url: `${origin}/v1/convai/conversation?agent_id=${encodeURIComponent(agentId)}&conversation_signature=sig-${sequence}`,
          }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  provider.apiUrl = `http://127.0.0.1:${port}`;
  provider.wsUrl = `ws://127.0.0.1:${port}`;
  provider.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return provider;
}
