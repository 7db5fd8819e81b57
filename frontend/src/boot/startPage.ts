/**
 * Where a page load starts, read from the address and the cookie alone: the rules the app's start-up
 * (main.tsx, RootLayout) and /session-preload.js (sessionPreload.ts) share. Nothing here imports the
 * app, so the preload script built from it stays a few hundred bytes.
 */

/** The server sets `sb_signed_in` (readable, no secret) beside the HttpOnly refresh cookie. */
export function hasSessionHint(cookie: string): boolean {
  return /(?:^|;\s*)sb_signed_in=/.test(cookie);
}

/**
 * The page opened is the chat, or the sign-in page that sends a signed-in user there (unless it was
 * asked to send them elsewhere).
 */
export function opensChat(pathname: string, search: string): boolean {
  return pathname === '/chat' || (pathname === '/' && !/[?&]redirect=/.test(search));
}

export type StartPage = 'chat' | 'sign-in';

/**
 * The screen a page load will most probably show, whose code can load before the session check: the
 * chat when the page leads there and the browser is probably signed in (the hint cookie), the sign-in
 * form when the visitor is signed out (on `/`, or on `/chat`, which sends them there).
 */
export function startPage(pathname: string, search: string, signedIn: boolean): StartPage | null {
  if (signedIn) return opensChat(pathname, search) ? 'chat' : null;
  return pathname === '/' || pathname === '/chat' ? 'sign-in' : null;
}
