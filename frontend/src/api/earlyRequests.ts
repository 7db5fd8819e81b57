/**
 * Requests that /session-preload.js (frontend/public) started before this code had loaded: the session
 * check and the first screen's data. An answer is used once, by the app's first request with the same
 * method and URL (the bootstrap's was sent with the access token that refresh answered with, the one
 * the app then holds).
 */
type EarlyRequests = Record<string, Promise<Response> | undefined>;

declare global {
  interface Window {
    __sbEarly?: EarlyRequests;
  }
}

export function takeEarlyResponse(method: string, url: string): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.__sbEarly;
  const key = `${method} ${url}`;
  const response = early?.[key];
  if (early && response) delete early[key];
  return response;
}
