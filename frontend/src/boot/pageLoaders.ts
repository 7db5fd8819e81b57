import { createElement, lazy, useState, type ComponentType } from 'react';
import { startPage } from './startPage';

/** A page whose code can load ahead of its route, and that renders without suspending once it has. */
export interface PreloadablePage {
  /** Loads the page's code (once; a failed load is tried again on the next call). */
  load: () => Promise<ComponentType>;
  /** The route's element type. */
  Page: ComponentType;
}

export function preloadablePage<M>(
  importer: () => Promise<M>,
  pick: (module: M) => ComponentType,
): PreloadablePage {
  let loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const load = () => {
    if (!pending) {
      const attempt = importer().then((module) => (loaded = pick(module)));
      attempt.catch(() => {
        if (pending === attempt) pending = undefined;
      });
      pending = attempt;
    }
    return pending;
  };
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function Page() {
    // The code already here (preloaded while the session was checked): rendered at once. Through
    // React.lazy it would suspend for a tick, and React throttles the reveal of suspended content: a
    // warm visit waited out that throttle with everything it needed. Chosen once per mount, so the
    // element type never changes under a mounted page.
    const [ready] = useState(() => loaded);
    return createElement(ready ?? Lazy);
  }
  return { load, Page };
}

/**
 * The pages a page load can start on, shared by the route table and the start-up: the chat's code
 * starts loading with the session check instead of after it.
 */
export const chatPage = preloadablePage(
  () => import('../pages/ChatPage'),
  (m) => m.ChatPage,
);
export const signInPage = preloadablePage(
  () => import('../pages/SignInPage'),
  (m) => m.SignInPage,
);

/** The first screen's code loading (preloadStartPage), settled either way; null once it has. */
let startPageLoading: Promise<void> | null = null;

/**
 * Starts loading the first screen's code before the app's first render (main.tsx), instead of when its
 * route renders after the session check.
 */
export function preloadStartPage(pathname: string, search: string, signedIn: boolean): void {
  const page = startPage(pathname, search, signedIn);
  const preload = page === 'chat' ? chatPage : page === 'sign-in' ? signInPage : null;
  if (!preload) return;
  // A failure here is the route's to report when it renders (its load tries the import again).
  const loading = preload.load().then(
    () => undefined,
    () => undefined,
  );
  startPageLoading = loading;
  void loading.then(() => {
    if (startPageLoading === loading) startPageLoading = null;
  });
}

/**
 * Settles once the first screen's code has loaded (or failed to); null when there is none to wait for.
 * The app's loading view stays until then (RootLayout), so the page then renders without suspending.
 */
export function startPageLoadingNow(): Promise<void> | null {
  return startPageLoading;
}
