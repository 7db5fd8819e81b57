import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

/** An answer: status and JSON body (omitted for an empty one). */
export type MockAnswer = [status: number, body?: unknown];

/**
 * Stubs the network boundary: `answer` gets each request (method, path, parsed JSON body) and returns
 * the status and body to reply with. Returns the calls made, in order.
 */
export function mockFetch(answer: (call: RecordedCall) => MockAnswer): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const call = {
      method: init?.method ?? 'GET',
      path: url,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    const [status, body] = answer(call);
    return Promise.resolve(
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  });
  return calls;
}
