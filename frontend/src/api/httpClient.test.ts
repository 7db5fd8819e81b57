import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  AUTH_ERROR_MESSAGE,
  getErrorMessage,
  hasErrorCode,
  NETWORK_ERROR_MESSAGE,
  PERMISSION_ERROR_MESSAGE,
  SERVER_ERROR_MESSAGE,
  UNKNOWN_ERROR_MESSAGE,
} from './errors';
import { createHttpClient } from './httpClient';
import { userView } from '../test/fixtures';
import type { AuthResponse } from './contracts';

const user = userView();

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function session(token: string): AuthResponse {
  return { accessToken: token, expiresIn: 900, user };
}

function urlOf(input: RequestInfo | URL | undefined): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input?.url ?? '';
}

function authHeader(init: RequestInit | undefined): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.Authorization;
}

describe('http client error mapping', () => {
  async function failWith(response: Response | Error): Promise<unknown> {
    const fetchFn = vi.fn<typeof fetch>(() =>
      response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
    );
    const client = createHttpClient({ fetchFn });
    return client.get('/api/anything', { auth: false }).then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error,
    );
  }

  it('maps a failed fetch to the network message', async () => {
    const error = await failWith(new TypeError('Failed to fetch'));
    expect(error).toBeInstanceOf(ApiError);
    expect(getErrorMessage(error)).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('maps 401, 403 and 5xx to the generic messages whatever the server said', async () => {
    expect(getErrorMessage(await failWith(json(401, { message: 'jwt expired' })))).toBe(AUTH_ERROR_MESSAGE);
    expect(getErrorMessage(await failWith(json(403, { message: 'nope' })))).toBe(PERMISSION_ERROR_MESSAGE);
    expect(getErrorMessage(await failWith(json(500, { message: 'stack trace' })))).toBe(SERVER_ERROR_MESSAGE);
    expect(getErrorMessage(await failWith(new Response('Bad gateway', { status: 502 })))).toBe(
      SERVER_ERROR_MESSAGE,
    );
  });

  it("shows the server's message for other failures, else the unknown message", async () => {
    const conflict = await failWith(json(409, { statusCode: 409, error: 'CONFLICT', message: 'Taken' }));
    expect(getErrorMessage(conflict)).toBe('Taken');
    expect((conflict as ApiError).code).toBe('CONFLICT');
    expect(getErrorMessage(await failWith(new Response('', { status: 400 })))).toBe(UNKNOWN_ERROR_MESSAGE);
    expect(getErrorMessage('weird')).toBe(UNKNOWN_ERROR_MESSAGE);
  });
});

describe('one error policy', () => {
  async function failWith(response: Response, options: { credentialCheck?: boolean } = {}) {
    const client = createHttpClient({ fetchFn: () => Promise.resolve(response) });
    return client.post('/api/auth/login', {}, { auth: false, ...options }).catch((e: unknown) => e);
  }

  it("shows a sign-in's own refusal (wrong password, unverified email) rather than the session message", async () => {
    const wrong = await failWith(json(401, { error: 'UNAUTHORIZED', message: 'Invalid email or password' }), {
      credentialCheck: true,
    });
    expect(getErrorMessage(wrong)).toBe('Invalid email or password');
    const unverified = await failWith(
      json(403, { error: 'EMAIL_NOT_VERIFIED', message: 'Please verify your email first' }),
      { credentialCheck: true },
    );
    expect(getErrorMessage(unverified)).toBe('Please verify your email first');
    expect(hasErrorCode(unverified, 'EMAIL_NOT_VERIFIED')).toBe(true);
  });

  it("uses the screen's fallback when there is nothing better to say", async () => {
    expect(getErrorMessage(await failWith(new Response('', { status: 400 })), 'Please try again later')).toBe(
      'Please try again later',
    );
    expect(getErrorMessage(undefined, 'Please try again later')).toBe('Please try again later');
    expect(getErrorMessage(await failWith(json(500, {})), 'Please try again later')).toBe(
      SERVER_ERROR_MESSAGE,
    );
  });
});

describe('http client refresh on 401', () => {
  it('refreshes once with the cookie and retries the call with the new token', async () => {
    const fetchFn = vi.fn<typeof fetch>((input, init) => {
      const url = urlOf(input);
      if (url === '/api/auth/refresh') return Promise.resolve(json(200, session('fresh')));
      if (authHeader(init) === 'Bearer fresh') return Promise.resolve(json(200, { ok: true }));
      return Promise.resolve(json(401, { message: 'Unauthorized' }));
    });
    const client = createHttpClient({ fetchFn });
    client.setSession(session('stale'));

    await expect(client.get('/api/me')).resolves.toEqual({ ok: true });

    const calls = fetchFn.mock.calls.map(([input, init]) => [urlOf(input), authHeader(init)]);
    expect(calls).toEqual([
      ['/api/me', 'Bearer stale'],
      ['/api/auth/refresh', undefined],
      ['/api/me', 'Bearer fresh'],
    ]);
    expect(fetchFn.mock.calls[1]?.[1]?.credentials).toBe('include');
    expect(client.getAccessToken()).toBe('fresh');
  });

  it('shares one refresh between concurrent 401s', async () => {
    const fetchFn = vi.fn<typeof fetch>((input, init) => {
      if (urlOf(input) === '/api/auth/refresh') return Promise.resolve(json(200, session('fresh')));
      return Promise.resolve(
        authHeader(init) === 'Bearer fresh' ? json(200, { ok: true }) : json(401, { message: 'no' }),
      );
    });
    const client = createHttpClient({ fetchFn });
    client.setSession(session('stale'));

    await Promise.all([client.get('/api/a'), client.get('/api/b')]);

    expect(fetchFn.mock.calls.filter(([input]) => urlOf(input) === '/api/auth/refresh')).toHaveLength(1);
  });

  it('gives up after one failed refresh, ends the session and reports the auth error', async () => {
    const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(json(401, { message: 'Unauthorized' })));
    const client = createHttpClient({ fetchFn });
    const listener = vi.fn();
    client.setSession(session('stale'));
    client.onSessionChange(listener);

    const error = await client.get('/api/me').catch((e: unknown) => e);

    expect(getErrorMessage(error)).toBe(AUTH_ERROR_MESSAGE);
    expect(fetchFn).toHaveBeenCalledTimes(2);
    expect(client.getAccessToken()).toBeNull();
    expect(listener).toHaveBeenCalledWith(null, 'expired');
  });

  it('does not refresh for calls made without auth (e.g. a failed sign-in)', async () => {
    const fetchFn = vi.fn<typeof fetch>(() =>
      Promise.resolve(json(401, { message: 'Invalid email or password' })),
    );
    const client = createHttpClient({ fetchFn });

    const error = await client.post('/api/auth/login', {}, { auth: false }).catch((e: unknown) => e);

    expect(fetchFn).toHaveBeenCalledTimes(1);
    expect((error as ApiError).serverMessage).toBe('Invalid email or password');
  });

  it('refreshes proactively 90 s before the token expires', async () => {
    vi.useFakeTimers();
    try {
      const fetchFn = vi.fn<typeof fetch>(() => Promise.resolve(json(200, session('next'))));
      const client = createHttpClient({ fetchFn });
      client.setSession({ ...session('first'), expiresIn: 900 });

      await vi.advanceTimersByTimeAsync(809_000);
      expect(fetchFn).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(fetchFn).toHaveBeenCalledTimes(1);
      expect(urlOf(fetchFn.mock.calls[0]?.[0])).toBe('/api/auth/refresh');
      expect(client.getAccessToken()).toBe('next');
      client.clearSession();
    } finally {
      vi.useRealTimers();
    }
  });
});
