import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { startEventSync } from '../sync/dispatch';
import { applyServerEvent } from '../workspace/applyServerEvent';

// The app's workspace hands the sync layer its event handler when it starts (workspace/session.ts):
// tests that dispatch server events, or replay them over an answer, run with the same handler.
startEventSync(applyServerEvent);

// findBy*/waitFor wait up to 5 s, not 1 s: on a loaded 2-core machine an antd form's submit can take
// longer than a second to render its answer (a test that must fail still fails, only later).
configure({ asyncUtilTimeout: 5000 });

// antd's responsive helpers and motion read these browser APIs, which jsdom does not provide.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
