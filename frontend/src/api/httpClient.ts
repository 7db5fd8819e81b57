import { ApiError } from './errors';
import type { ApiErrorBody, AuthResponse } from './contracts';
import { takeEarlyResponse } from '../boot/earlyRequests';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  /** JSON body; ignored when `formData` is given. */
  body?: unknown;
  formData?: FormData;
  /** Send the Bearer token and refresh once on a 401 (default true). Off for sign-in style calls. */
  auth?: boolean;
  /** With `auth`, refresh and retry once on a 401 (default true). */
  refreshOnUnauthorized?: boolean;
  /**
   * The call checks credentials the user typed (sign-in): its 401/403 messages are shown as the server
   * wrote them, not replaced by the generic session ones.
   */
  credentialCheck?: boolean;
  /** Extra request headers (e.g. X-Company-Id for company-scoped routes). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A successful answer's body as a Blob (a ZIP download), not read as JSON or text. */
  binary?: boolean;
}

export type SessionListener = (session: AuthResponse | null, reason: SessionChangeReason) => void;
/** Told of every error answer, with the options of the call that got it (its X-Company-Id among them). */
export type ApiErrorListener = (error: ApiError, options: RequestOptions) => void;
export type SessionChangeReason = 'set' | 'refreshed' | 'cleared' | 'expired';

export interface HttpClientOptions {
  baseUrl?: string;
  fetchFn?: typeof fetch;
  /** Refresh this many seconds before the access token expires (spec: 90 s). */
  refreshLeewaySeconds?: number;
}

const REFRESH_PATH = '/api/auth/refresh';

export interface HttpClient {
  request: <T>(method: HttpMethod, path: string, options?: RequestOptions) => Promise<T>;
  get: <T>(path: string, options?: RequestOptions) => Promise<T>;
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<T>;
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<T>;
  delete: <T>(path: string, options?: RequestOptions) => Promise<T>;
  /** Exchanges the refresh cookie for a new access token; concurrent callers share one request. */
  refresh: () => Promise<AuthResponse>;
  setSession: (session: AuthResponse) => void;
  clearSession: () => void;
  getAccessToken: () => string | null;
  onSessionChange: (listener: SessionListener) => () => void;
  onApiError: (listener: ApiErrorListener) => () => void;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '';
  const fetchFn = options.fetchFn ?? ((input, init) => globalThis.fetch(input, init));
  const leewaySeconds = options.refreshLeewaySeconds ?? 90;

  let accessToken: string | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshInFlight: Promise<AuthResponse> | null = null;
  const listeners = new Set<SessionListener>();
  const errorListeners = new Set<ApiErrorListener>();

  function notify(session: AuthResponse | null, reason: SessionChangeReason): void {
    for (const listener of listeners) listener(session, reason);
  }

  function scheduleProactiveRefresh(expiresInSeconds: number): void {
    clearTimeout(refreshTimer);
    const delayMs = Math.max(expiresInSeconds - leewaySeconds, 5) * 1000;
    refreshTimer = setTimeout(() => {
      // A failed proactive refresh is handled inside refresh() (session expired); nothing to add here.
      refresh().catch(() => undefined);
    }, delayMs);
  }

  function applySession(session: AuthResponse, reason: SessionChangeReason): void {
    accessToken = session.accessToken;
    scheduleProactiveRefresh(session.expiresIn);
    notify(session, reason);
  }

  function dropSession(reason: SessionChangeReason): void {
    const hadToken = accessToken !== null;
    accessToken = null;
    clearTimeout(refreshTimer);
    if (hadToken || reason === 'cleared') notify(null, reason);
  }

  async function send(method: HttpMethod, path: string, opts: RequestOptions, token: string | null) {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    let body: BodyInit | undefined;
    if (opts.formData) {
      body = opts.formData;
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    if (token) headers.Authorization = `Bearer ${token}`;
    // Already on its way when the page's first request is one /session-preload.js started (bodiless).
    const early = body === undefined ? takeEarlyResponse(method, `${baseUrl}${path}`) : undefined;
    try {
      return await (early ??
        fetchFn(`${baseUrl}${path}`, {
          method,
          headers,
          body,
          credentials: 'include',
          signal: opts.signal,
        }));
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError('network', 0, undefined, { cause, credentialCheck: opts.credentialCheck });
    }
  }

  async function readBody(response: Response): Promise<unknown> {
    if (response.status === 204) return undefined;
    const text = await response.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }

  async function toResult<T>(response: Response, opts: RequestOptions = {}): Promise<T> {
    if (opts.binary && response.ok) return (await response.blob()) as T;
    const body = await readBody(response);
    if (!response.ok) {
      const errorBody =
        typeof body === 'object' && body !== null ? (body as Partial<ApiErrorBody>) : undefined;
      const error = new ApiError('http', response.status, errorBody, {
        credentialCheck: opts.credentialCheck,
      });
      for (const listener of errorListeners) listener(error, opts);
      throw error;
    }
    return body as T;
  }

  function refresh(): Promise<AuthResponse> {
    refreshInFlight ??= (async () => {
      try {
        const response = await send('POST', REFRESH_PATH, {}, null);
        const session = await toResult<AuthResponse>(response);
        applySession(session, 'refreshed');
        return session;
      } catch (error) {
        // Only a definite "no" from the server ends the session; a network blip keeps the token we have.
        if (error instanceof ApiError && !error.isTransient) dropSession('expired');
        throw error;
      } finally {
        refreshInFlight = null;
      }
    })();
    return refreshInFlight;
  }

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
    const useAuth = opts.auth ?? true;
    const tokenUsed = useAuth ? accessToken : null;
    const response = await send(method, path, opts, tokenUsed);
    if (response.status === 401 && useAuth && (opts.refreshOnUnauthorized ?? true)) {
      // The token may have expired since it was issued: refresh once, then retry once.
      let session: AuthResponse;
      try {
        session = await refresh();
      } catch (refreshError) {
        if (refreshError instanceof ApiError && refreshError.isTransient) throw refreshError;
        return toResult<T>(response, opts);
      }
      return toResult<T>(await send(method, path, opts, session.accessToken), opts);
    }
    return toResult<T>(response, opts);
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
    refresh,
    setSession: (session) => applySession(session, 'set'),
    clearSession: () => dropSession('cleared'),
    getAccessToken: () => accessToken,
    onSessionChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onApiError(listener) {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
  };
}

/** The app's one client; features (agents, chats, sockets) reuse it for the token and refresh policy. */
export const http = createHttpClient();
