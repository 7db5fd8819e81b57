import type { ApiErrorBody, ApiErrorCode } from './contracts';

export const NETWORK_ERROR_MESSAGE = 'Network connection issue. Please check your internet connection.';
export const AUTH_ERROR_MESSAGE = 'Authentication error. Please try logging in again.';
export const SERVER_ERROR_MESSAGE = 'Server error. Please try again later.';
export const PERMISSION_ERROR_MESSAGE = "You don't have permission to perform this action.";
export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred.';

export type ApiErrorKind = 'network' | 'http';

/** A failed API call: either the request never got an answer (network) or the server answered 4xx/5xx. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly code: ApiErrorCode | undefined;
  /** The server's human-readable `message`, when it sent one. */
  readonly serverMessage: string | undefined;
  /**
   * The call checked credentials the user just typed (sign-in): a 401/403 describes them ('Invalid email
   * or password', 'Please verify your email first'), not the session.
   */
  readonly credentialCheck: boolean;

  constructor(
    kind: ApiErrorKind,
    status: number,
    body?: Partial<ApiErrorBody>,
    options: { cause?: unknown; credentialCheck?: boolean } = {},
  ) {
    const serverMessage = readServerMessage(body);
    super(serverMessage ?? (kind === 'network' ? NETWORK_ERROR_MESSAGE : `HTTP ${status}`), {
      cause: options.cause,
    });
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.code = body?.error;
    this.serverMessage = serverMessage;
    this.credentialCheck = options.credentialCheck ?? false;
  }

  get isNetworkError(): boolean {
    return this.kind === 'network';
  }

  /** Network failures and 5xx answers: worth retrying, and not a sign that the user is signed out. */
  get isTransient(): boolean {
    return this.kind === 'network' || this.status >= 500;
  }
}

function readServerMessage(body: { message?: unknown } | undefined): string | undefined {
  const message = body?.message;
  // Not our filter's shape (a proxy's, say): a list of messages is joined, anything else ignored.
  if (Array.isArray(message)) return message.length > 0 ? message.join(', ') : undefined;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

/**
 * The one error policy (spec section 8): the message a person sees for any failure.
 * - no answer: the network message; a 5xx: the server message (never a stack trace);
 * - 401 and 403 of a session call: the generic authentication and permission messages;
 * - any other 4xx (and 401/403 of a sign-in): the server's own sentence, which says what to fix;
 * - otherwise the error's message, else `fallback` (the screen's own, or 'An unknown error occurred.').
 */
export function getErrorMessage(error: unknown, fallback: string = UNKNOWN_ERROR_MESSAGE): string {
  if (error instanceof ApiError) {
    if (error.kind === 'network') return NETWORK_ERROR_MESSAGE;
    if (error.status >= 500) return SERVER_ERROR_MESSAGE;
    if (!error.credentialCheck && error.status === 401) return AUTH_ERROR_MESSAGE;
    // A company that requires single sign-on says how to reach it.
    if (error.code === 'SSO_REQUIRED' && error.serverMessage) return error.serverMessage;
    if (!error.credentialCheck && error.status === 403) return PERMISSION_ERROR_MESSAGE;
    return error.serverMessage ?? fallback;
  }
  // fetch rejects with a TypeError when the request never left (offline, DNS, CORS).
  if (error instanceof TypeError) return NETWORK_ERROR_MESSAGE;
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return fallback;
}

/** The server refused with this code (e.g. EMAIL_NOT_VERIFIED: offer to resend the link). */
export function hasErrorCode(error: unknown, code: ApiErrorCode): boolean {
  return error instanceof ApiError && error.code === code;
}
