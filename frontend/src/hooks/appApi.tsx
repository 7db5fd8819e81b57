import { ConfigProvider, theme } from 'antd';
import { createContext, lazy, Suspense, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AppApis, NotificationConfig } from './AppHolders';

/**
 * antd's `App` without its weight on the first screen. antd's own `App` builds the toast, message and
 * confirm-dialog machinery (notification, message, Modal with its buttons and skeletons: about 25 KB
 * gzip) before anything renders, though nothing shows a toast until the user has acted. This shell
 * renders the same root element (class `ant-app`, antd's text colour and font, the theme's CSS
 * variables) and hands out the same API (`App.useApp()` → `{ notification, message, modal }`), whose
 * methods stay the same objects for the page's life; the real antd hooks load in their own chunk at the
 * user's first key or pointer press, ten seconds after start-up, or at the first call, which then
 * waits for them.
 */

type Apis = AppApis;
type Kind = keyof Apis;

const AppHolders = lazy(() => import('./AppHolders'));

/** The APIs handed to screens, and what the holders call once antd's hook APIs exist. */
interface LazyApis {
  value: Apis;
  /** The current hook APIs (new ones when the toast placement changes). */
  attach: (apis: Apis) => void;
}

function createLazyApis(load: () => void): LazyApis {
  let real: Apis | null = null;
  let queue: Array<(apis: Apis) => void> = [];

  const method =
    (kind: Kind, name: string) =>
    (...args: unknown[]): unknown => {
      const call = (apis: Apis) =>
        (apis[kind] as unknown as Record<string, (...a: unknown[]) => unknown>)[name](...args);
      if (real) return call(real);
      load();
      // Wrapped: a confirm dialog's handle is a thenable, which a promise would otherwise unwrap.
      const pending = new Promise<{ handle: unknown }>((resolve) =>
        queue.push((apis) => resolve({ handle: call(apis) })),
      );
      const handle = () => pending.then(({ handle }) => handle);
      type Closable = { destroy?: () => void; update?: (c: unknown) => void };
      // What message.* (a function that closes it, and a thenable) and modal.* (destroy, update, then)
      // return, forwarded to the real handle once it exists. notification.* returns nothing.
      return Object.assign(() => void handle().then((h) => typeof h === 'function' && h()), {
        destroy: () => void handle().then((h) => (h as Closable | undefined)?.destroy?.()),
        update: (config: unknown) => void handle().then((h) => (h as Closable | undefined)?.update?.(config)),
        then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          handle().then(onFulfilled, onRejected),
      });
    };

  const api = (kind: Kind, names: string[]) =>
    Object.fromEntries(names.map((name) => [name, method(kind, name)])) as never;
  const open = ['open', 'success', 'error', 'info', 'warning'];
  return {
    value: {
      notification: api('notification', [...open, 'destroy']),
      message: api('message', [...open, 'loading', 'destroy']),
      modal: api('modal', ['confirm', 'info', 'success', 'error', 'warning']),
    },
    attach(apis) {
      real = apis;
      const waiting = queue;
      queue = [];
      for (const run of waiting) run(apis);
    },
  };
}

/**
 * Outside `AppShell` (a component rendered alone in a test) the APIs have no methods, as antd's own
 * `App.useApp()` has none outside antd's `App`.
 */
const AppApisContext = createContext<Apis>({ notification: {}, message: {}, modal: {} } as Apis);

/** Drop-in for antd's `App` as the screens use it: `App.useApp()`. */
export const App = {
  useApp: (): Apis => useContext(AppApisContext),
};

/** When the holders load without being asked for (after the first screen, when the page is idle). */
const LOAD_AFTER_MS = 10_000;

/** Loads the holders when the browser is idle after the first screen (or at once without idle callbacks). */
function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback !== 'function') {
    const id = window.setTimeout(run, 0);
    return () => window.clearTimeout(id);
  }
  const id = window.requestIdleCallback(run, { timeout: 3000 });
  return () => window.cancelIdleCallback(id);
}

/** The app's root element and the lazily loaded toast, message and dialog APIs. */
export function AppShell({
  notification,
  children,
}: {
  notification: NotificationConfig;
  children: ReactNode;
}) {
  const { getPrefixCls, direction, theme: themeConfig } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('app');
  // The classes antd's App puts on its root. With the theme's zeroRuntime its styles come from the
  // prebuilt stylesheet and its style hook only hands back the theme's hash and the class its CSS
  // variables hang on (the theme's cssVar key): both read here through antd's public API.
  const { hashId } = theme.useToken();
  const cssVarCls = themeConfig?.cssVar?.key;
  const [wanted, setWanted] = useState(false);
  const [apis] = useState(() => createLazyApis(() => setWanted(true)));

  useEffect(() => {
    if (wanted) return;
    // Not while the first screen loads (its idle gaps, waiting for the network, are not the end of the
    // start-up): at the user's first press of a key or pointer, whatever a toast may follow, or once the
    // page has been idle ten seconds in (a slow first screen is not raced).
    const load = () => setWanted(true);
    const events = ['pointerdown', 'keydown'] as const;
    for (const name of events) window.addEventListener(name, load, { capture: true, once: true });
    let cancelIdle = () => {};
    const id = window.setTimeout(() => (cancelIdle = whenIdle(load)), LOAD_AFTER_MS);
    return () => {
      for (const name of events) window.removeEventListener(name, load, { capture: true });
      window.clearTimeout(id);
      cancelIdle();
    };
  }, [wanted]);

  return (
    <AppApisContext.Provider value={apis.value}>
      <div
        className={[hashId, prefixCls, cssVarCls, direction === 'rtl' ? `${prefixCls}-rtl` : '']
          .filter(Boolean)
          .join(' ')}
      >
        {wanted && (
          <Suspense fallback={null}>
            <AppHolders notification={notification} onReady={apis.attach} />
          </Suspense>
        )}
        {children}
      </div>
    </AppApisContext.Provider>
  );
}
