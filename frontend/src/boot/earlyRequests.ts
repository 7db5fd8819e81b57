/**
 * Requests that /session-preload.js (frontend/public) started before this code had loaded: the session
 * check and the first screen's data. An answer is used once, by the app's first request with the same
 * method and URL (the bootstrap's was sent with the access token that refresh answered with, the one
 * the app then holds).
 */
export type EarlyRequests = Record<string, Promise<Response> | undefined>;

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

/** The longest the app waits for /session-preload.js before checking the session itself. */
const PRELOAD_WAIT_MS = 1000;

/**
 * Resolves once /session-preload.js has run (it sets `window.__sbEarly` first thing), has failed to load,
 * or after PRELOAD_WAIT_MS. The script is `async`, so on a warm load the app's code can run first: checking
 * the session then would send a second refresh beside the script's (seen on 1 of 4 warm loads), and each
 * refresh rotates the refresh token.
 */
export function preloadSettled(): Promise<void> {
  if (typeof window === 'undefined' || window.__sbEarly) return Promise.resolve();
  const script = document.querySelector<HTMLScriptElement>('script[src$="/session-preload.js"]');
  if (!script) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, PRELOAD_WAIT_MS);
    script.addEventListener('load', done, { once: true });
    script.addEventListener('error', done, { once: true });
  });
}
