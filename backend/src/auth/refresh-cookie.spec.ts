import type { Response } from 'express';
import { loadConfig } from '../config/app-config';
import { setRefreshCookie } from './refresh-cookie';

// The Google callback answers with a redirect that sets the refresh cookie
// (setRefreshCookie); like every answer carrying a token, caches must not keep it.
describe('setRefreshCookie', () => {
  it('marks the answer no-store', () => {
    const headers: Record<string, string> = {};
    const res = {
      setHeader: (name: string, value: string) => {
        headers[name.toLowerCase()] = value;
      },
      cookie: jest.fn(),
    } as unknown as Response;
    const config = loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/sb-refresh-cookie-spec' });
    setRefreshCookie(res, config, 'session.secret');
    expect(headers).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
  });
});
