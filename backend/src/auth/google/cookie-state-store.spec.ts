import type { Request } from 'express';
import { CookieStateStore, OAUTH_STATE_COOKIE } from './cookie-state-store';

function fakeExchange() {
  const cookies: Record<string, string> = {};
  const req = {
    cookies,
    res: {
      cookie: (name: string, value: string) => {
        cookies[name] = value;
      },
      clearCookie: () => undefined,
    },
  } as unknown as Request;
  return { req, cookies };
}

const store = (req: Request, s: CookieStateStore) =>
  new Promise<string>((resolve, reject) =>
    s.store(req, 'the-verifier', undefined, {}, (err, handle) =>
      err ? reject(err) : resolve(handle as string),
    ),
  );
const verify = (req: Request, s: CookieStateStore, state: string) =>
  new Promise<string | false | undefined>((resolve) =>
    s.verify(req, state, (_e, verifier) => resolve(verifier)),
  );

describe('CookieStateStore', () => {
  const secret = 'a-secret-that-is-long-enough-for-hs256-000';

  it('gives the PKCE verifier back for the state it issued', async () => {
    const s = new CookieStateStore(secret, false);
    const { req, cookies } = fakeExchange();
    const handle = await store(req, s);
    expect(cookies[OAUTH_STATE_COOKIE]).toBeDefined();
    expect(await verify(req, s, handle)).toBe('the-verifier');
  });

  it('refuses another state, a missing cookie and a cookie signed with another key', async () => {
    const s = new CookieStateStore(secret, false);
    const { req } = fakeExchange();
    const handle = await store(req, s);
    expect(await verify(req, s, handle + 'x')).toBe(false);
    expect(await verify(fakeExchange().req, s, handle)).toBe(false);
    const other = new CookieStateStore('another-secret-that-is-long-enough-0000', false);
    expect(await verify(req, other, handle)).toBe(false);
  });
});
