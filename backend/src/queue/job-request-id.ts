import { acceptRequestId, currentRequestId } from '../logging/request-context';

/**
 * A job's stored data: its payload, plus the id of the HTTP request that queued it (a job queued by a
 * job keeps the first request's id). The handler gets the payload alone, the id in its `JobMeta`.
 */
export function withRequestId<T extends object>(data: T): T & { requestId?: string } {
  const requestId = currentRequestId();
  return requestId ? { ...data, requestId } : data;
}

export function splitRequestId<T>(stored: unknown): { data: T; requestId: string | undefined } {
  if (!stored || typeof stored !== 'object' || !('requestId' in stored)) {
    return { data: stored as T, requestId: undefined };
  }
  const { requestId, ...data } = stored as { requestId?: unknown };
  return {
    data: data as T,
    requestId: typeof requestId === 'string' ? (acceptRequestId(requestId) ?? undefined) : undefined,
  };
}
