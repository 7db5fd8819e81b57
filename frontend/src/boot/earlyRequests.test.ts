import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthResponse } from '../api/contracts';
import { preloadSettled } from './earlyRequests';
import { createHttpClient } from '../api/httpClient';
import { userView } from '../test/fixtures';

const session = (token: string): AuthResponse => ({ accessToken: token, expiresIn: 900, user: userView() });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('requests started by /session-preload.js', () => {
  afterEach(() => {
    delete window.__sbEarly;
  });

  it('answers the first identical request once, then the network answers', async () => {
    window.__sbEarly = {
      'POST /api/auth/refresh': Promise.resolve(json(200, session('early'))),
      'GET /api/bootstrap?chat=true': Promise.resolve(json(200, { from: 'early' })),
    };
    const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(json(200, session('late'))));
    const http = createHttpClient({ fetchFn });

    expect((await http.refresh()).accessToken).toBe('early');
    expect(http.getAccessToken()).toBe('early');
    expect(await http.get('/api/bootstrap?chat=true')).toEqual({ from: 'early' });
    expect(fetchFn).not.toHaveBeenCalled();

    expect((await http.refresh()).accessToken).toBe('late');
    expect(fetchFn).toHaveBeenCalledTimes(1);
  });

  it('is not used for another request, and a failed one fails like the network', async () => {
    window.__sbEarly = {
      'POST /api/auth/refresh': Promise.reject(new TypeError('Failed to fetch')),
      'GET /api/bootstrap?chat=true': Promise.resolve(json(200, { from: 'early' })),
    };
    const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(json(200, { from: 'network' })));
    const http = createHttpClient({ fetchFn });

    await expect(http.refresh()).rejects.toMatchObject({ kind: 'network' });
    expect(await http.get('/api/bootstrap')).toEqual({ from: 'network' });
    expect(fetchFn).toHaveBeenCalledTimes(1);
  });
});

describe('waiting for /session-preload.js', () => {
  afterEach(() => {
    delete window.__sbEarly;
    document.head.querySelector('script[src="/session-preload.js"]')?.remove();
  });

  it('waits until the script has run when the app starts first, and not when it has run', async () => {
    const script = document.createElement('script');
    script.setAttribute('src', '/session-preload.js');
    document.head.append(script);
    let settled = false;
    const waiting = preloadSettled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    window.__sbEarly = {};
    script.dispatchEvent(new Event('load'));
    await waiting;
    expect(settled).toBe(true);
    // Run already: nothing to wait for.
    await expect(preloadSettled()).resolves.toBeUndefined();
  });

  it('does not wait when the page has no preload script (tests, other pages)', async () => {
    await expect(preloadSettled()).resolves.toBeUndefined();
  });
});
