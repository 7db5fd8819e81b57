import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_COMPANY_STORAGE_KEY } from '../stores/companyStore';
import { buildSessionPreload } from './build/sessionPreload';
import { COMPANY_STORAGE_KEY, preloadSession } from './sessionPreload';

/** What the build passes: the files each start page loads beyond the entry. */
const FILES = {
  chat: ['/assets/start-pages-1.js', '/assets/chat-1.js'],
  'sign-in': ['/assets/start-pages-1.js', '/assets/sign-in-1.js'],
};

const runPreload = () => preloadSession(FILES);

/** The modulepreload links the script added, in order. */
const preloaded = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) =>
    link.getAttribute('href'),
  );

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
/** The server refuses the session (these tests look at what else the script does). */
const refuseSession = () => vi.stubGlobal('fetch', () => Promise.resolve(json(401, {})));

const urlOf = (input: unknown) => String(input);

describe('/session-preload.js', () => {
  beforeEach(() => {
    document.cookie = 'sb_signed_in=1; path=/';
    localStorage.setItem('currentCompanyId', 'c-1');
  });
  afterEach(() => {
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((link) => link.remove());
    window.history.replaceState(null, '', '/');
    delete window.__sbEarly;
    document.cookie = 'sb_signed_in=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('asks once for the session and the bootstrap, and answers the app as the refresh and the bootstrap', async () => {
    const session = { accessToken: 'tok', expiresIn: 900, user: { id: 'u-1' } };
    const bootstrap = { user: { id: 'u-1' }, companies: [], chat: null };
    const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(json(200, { ...session, bootstrap })));
    vi.stubGlobal('fetch', fetchFn);

    runPreload();

    expect(fetchFn).toHaveBeenCalledTimes(1);
    expect(urlOf(fetchFn.mock.calls[0][0])).toBe('/api/auth/session?companyId=c-1&chat=true');
    expect(fetchFn.mock.calls[0][1]).toMatchObject({ method: 'POST', credentials: 'include' });
    const early = window.__sbEarly ?? {};
    const refresh = await early['POST /api/auth/refresh'];
    expect(refresh?.status).toBe(200);
    expect(await refresh?.json()).toEqual(session);
    expect(await (await early['GET /api/bootstrap?companyId=c-1&chat=true'])?.json()).toEqual(bootstrap);
  });

  it('passes a refused session on as it came, and has no bootstrap to give', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(json(401, { message: 'Your session has ended' })));

    runPreload();

    const early = window.__sbEarly ?? {};
    const refresh = await early['POST /api/auth/refresh'];
    expect(refresh?.status).toBe(401);
    expect(await refresh?.json()).toEqual({ message: 'Your session has ended' });
    await expect(early['GET /api/bootstrap?companyId=c-1&chat=true']).rejects.toThrow('no session');
  });

  it('asks GET /api/bootstrap itself when the server could not read it', async () => {
    const fetchFn = vi.fn<typeof fetch>((input) =>
      Promise.resolve(
        urlOf(input).startsWith('/api/auth/session')
          ? json(200, { accessToken: 'tok', expiresIn: 900, user: { id: 'u-1' }, bootstrap: null })
          : json(200, { from: 'network' }),
      ),
    );
    vi.stubGlobal('fetch', fetchFn);

    runPreload();

    const early = window.__sbEarly ?? {};
    expect(await (await early['GET /api/bootstrap?companyId=c-1&chat=true'])?.json()).toEqual({
      from: 'network',
    });
    expect(urlOf(fetchFn.mock.calls[1][0])).toBe('/api/bootstrap?companyId=c-1&chat=true');
    expect(fetchFn.mock.calls[1][1]).toMatchObject({ headers: { Authorization: 'Bearer tok' } });
  });

  it('asks nothing without the signed-in hint cookie', () => {
    document.cookie = 'sb_signed_in=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    const fetchFn = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchFn);

    runPreload();

    expect(window.__sbEarly).toEqual({});
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('is built into one classic script that runs as the browser runs it, with the files it is given', async () => {
    window.history.replaceState(null, '', '/chat');
    refuseSession();

    const script = await buildSessionPreload(FILES);
    expect(script).not.toMatch(/^\s*(import|export)\b/m);
    new Function(script)();

    expect(preloaded()).toEqual(FILES.chat);
    expect(await window.__sbEarly?.['POST /api/auth/refresh']).toMatchObject({ status: 401 });
  });

  it('reads the company the app stores as the one shown last', () => {
    expect(COMPANY_STORAGE_KEY).toBe(CURRENT_COMPANY_STORAGE_KEY);
  });

  it("starts loading the chat's code beside the app's entry, signed in", () => {
    window.history.replaceState(null, '', '/chat');
    refuseSession();

    runPreload();

    expect(preloaded()).toEqual(FILES.chat);
    const link = document.head.querySelector<HTMLLinkElement>('link[rel="modulepreload"]');
    // As the app's own scripts are loaded (type=module crossorigin): the preloaded module is the one used.
    expect(link?.crossOrigin).toBe('');
  });

  it("starts loading the sign-in form's code when signed out, and asks nothing", () => {
    document.cookie = 'sb_signed_in=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    const fetchFn = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchFn);

    runPreload();

    expect(preloaded()).toEqual(FILES['sign-in']);
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('preloads no page on a screen that is not a start page', () => {
    window.history.replaceState(null, '', '/company/admin/users');
    refuseSession();

    runPreload();

    expect(preloaded()).toEqual([]);
    window.history.replaceState(null, '', '/?redirect=%2Fcompany%2Fadmin');
    runPreload();
    expect(preloaded()).toEqual([]);
  });
});
