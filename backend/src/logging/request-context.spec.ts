import { acceptRequestId, currentRequestId, requestIdFor, runInRequestContext } from './request-context';
import { accessPath } from './logger';

describe('request ids', () => {
  it('keeps a sane incoming id and nothing else', () => {
    expect(acceptRequestId('lb-Trace_42.7')).toBe('lb-Trace_42.7');
    expect(acceptRequestId(['first-id', 'second'])).toBe('first-id');
    for (const bad of [undefined, '', 'with space', 'new\nline', 'a'.repeat(65), '{"json":1}', 'ünïcode'])
      expect(acceptRequestId(bad)).toBeNull();
    expect(acceptRequestId('a'.repeat(64))).toBe('a'.repeat(64));
    expect(requestIdFor('bad id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is the context’s, across awaits, and gone outside it', async () => {
    expect(currentRequestId()).toBeUndefined();
    await runInRequestContext({ requestId: 'r-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe('r-1');
    });
    expect(currentRequestId()).toBeUndefined();
  });
});

describe('accessPath', () => {
  it('drops the query string, whatever it holds', () => {
    const req = (originalUrl: string) => ({ originalUrl }) as Parameters<typeof accessPath>[0];
    expect(accessPath(req('/api/invitations/lookup?token=secret'))).toBe('/api/invitations/lookup');
    expect(accessPath(req('/reset-password?token=a?b=c'))).toBe('/reset-password');
    expect(accessPath(req(`/${'x'.repeat(400)}`))).toHaveLength(301);
  });
});
