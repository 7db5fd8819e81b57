import type { ApiErrorBody } from './types';

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
  readonly code: string | undefined;
  /** The server's human-readable `message`, when it sent one. */
  readonly serverMessage: string | undefined;

  constructor(kind: ApiErrorKind, status: number, body?: ApiErrorBody, cause?: unknown) {
    const serverMessage = readServerMessage(body);
    super(serverMessage ?? (kind === 'network' ? NETWORK_ERROR_MESSAGE : `HTTP ${status}`), { cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.code = body?.error;
    this.serverMessage = serverMessage;
  }

  get isNetworkError(): boolean {
    return this.kind === 'network';
  }

  /** Network failures and 5xx answers: worth retrying, and not a sign that the user is signed out. */
  get isTransient(): boolean {
    return this.kind === 'network' || this.status >= 500;
  }
}

function readServerMessage(body: ApiErrorBody | undefined): string | undefined {
  const message = body?.message;
  if (Array.isArray(message)) return message.length > 0 ? message.join(', ') : undefined;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

/** The spec's generic error policy (section 8): one message a person can read for any failure. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'network') return NETWORK_ERROR_MESSAGE;
    if (error.status === 401) return AUTH_ERROR_MESSAGE;
    if (error.status === 403) return PERMISSION_ERROR_MESSAGE;
    if (error.status >= 500) return SERVER_ERROR_MESSAGE;
    return error.serverMessage ?? UNKNOWN_ERROR_MESSAGE;
  }
  if (error instanceof TypeError) return NETWORK_ERROR_MESSAGE;
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return UNKNOWN_ERROR_MESSAGE;
}

/**
 * The server's own message for a 4xx answer (e.g. 'Invalid email or password' on a 401 from login,
 * where the generic 401 text would be wrong), else the generic mapping.
 */
export function getClientErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'http' && error.status < 500 && error.serverMessage) {
    return error.serverMessage;
  }
  return getErrorMessage(error);
}

/** Like getClientErrorMessage, but with the screen's own fallback when there is no message to show. */
export function getErrorMessageOr(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.kind === 'http' && error.status < 500) {
    return error.serverMessage ?? fallback;
  }
  const message = getErrorMessage(error);
  return message === UNKNOWN_ERROR_MESSAGE ? fallback : message;
}
